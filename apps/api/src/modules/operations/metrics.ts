import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus metrics (decision 0088). One registry per process, not prom-client's
 * global one: each API process serves its own /metrics on its private port and Prometheus scrapes
 * each. Every label is bounded: route templates, outcomes from the lists below, location slugs.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

/** Outcomes a hold request ends in, as the reservation service decides it. */
export const HOLD_OUTCOMES = [
  'granted',
  'existing',
  'taken',
  'limit',
  'cooldown',
  'not_admitted',
  'rate_limited',
  'booking_limit',
  'not_open',
  'not_found',
  'error',
] as const;
export type HoldOutcome = (typeof HOLD_OUTCOMES)[number];
export const PAYMENT_OUTCOMES = ['succeeded', 'failed', 'canceled'] as const;
export const REFUND_OUTCOMES = ['sent', 'retrying', 'failed'] as const;

/** The one route label for requests no route matched (404s of any path): never the raw path. */
export const UNMATCHED_ROUTE = 'unmatched';

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration in seconds, by route template, method and status code.',
  labelNames: ['route', 'method', 'status_code'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export const holdsTotal = new Counter({
  name: 'kringle_holds_total',
  help:
    'Hold requests by outcome (granted, existing, taken, limit, cooldown, not_admitted, rate_limited, ' +
    'booking_limit, not_open, not_found, error).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const paymentsTotal = new Counter({
  name: 'kringle_payments_total',
  help: 'Payment outcomes applied from Stripe (webhook or reconciliation), by outcome.',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const refundsTotal = new Counter({
  name: 'kringle_refunds_total',
  help: 'Refund attempts sent to Stripe, by outcome (sent, retrying, failed = gave up).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const walletUpdatesTotal = new Counter({
  name: 'kringle_wallet_updates_total',
  help:
    'Changed passes sent on by this process, by wallet (apple = an APNs push, google = an object update) and ' +
    'outcome.',
  labelNames: ['wallet', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const webhookLag = new Gauge({
  name: 'kringle_webhook_lag_seconds',
  help: 'Seconds between Stripe creating the last webhook event this process received and its arrival.',
  registers: [metricsRegistry],
});

// Children bound once (a hold is counted without a label lookup), and zero series from the start,
// so a rate() has a baseline before the first hold or payment.
const bound = <O extends string>(counter: Counter<'outcome'>, outcomes: readonly O[]) =>
  Object.fromEntries(outcomes.map((o) => [o, counter.labels(o)])) as Record<O, { inc(by?: number): void }>;
export const holds = bound(holdsTotal, HOLD_OUTCOMES);
export const payments = bound(paymentsTotal, PAYMENT_OUTCOMES);
export const refunds = bound(refundsTotal, REFUND_OUTCOMES);
for (const wallet of ['apple', 'google'])
  for (const outcome of ['sent', 'failed']) walletUpdatesTotal.labels(wallet, outcome);

/** The hold outcome for an error code the reservation service threw (anything else is `error`). */
const HOLD_OUTCOME_OF_CODE: Record<string, HoldOutcome> = {
  SLOT_UNAVAILABLE: 'taken',
  HOLD_LIMIT: 'limit',
  HOLD_COOLDOWN: 'cooldown',
  QUEUE_NOT_ADMITTED: 'not_admitted',
  RATE_LIMITED: 'rate_limited',
  BOOKING_LIMIT: 'booking_limit',
  SALES_NOT_OPEN: 'not_open',
  NOT_FOUND: 'not_found',
};

export function countHoldRefusal(err: unknown): void {
  const code = (err as { code?: unknown } | null)?.code;
  holds[(typeof code === 'string' && HOLD_OUTCOME_OF_CODE[code]) || 'error'].inc();
}

/** Every metric name in the registry (the dashboard test checks its queries against these). */
export async function metricNames(): Promise<string[]> {
  return (await metricsRegistry.getMetricsAsJSON()).map((m) => m.name);
}

/** CSP directives a violation report may name; anything else is counted as `other` (bounded labels). */
export const CSP_DIRECTIVES = [
  'script-src',
  'script-src-elem',
  'script-src-attr',
  'connect-src',
  'frame-src',
  'style-src',
  'style-src-elem',
  'img-src',
  'form-action',
  'default-src',
  'other',
] as const;

export const cspViolationsTotal = new Counter({
  name: 'kringle_csp_violations_total',
  help:
    'Content-Security-Policy violation reports received from browsers (the payment pages report them), by ' +
    'directive.',
  labelNames: ['directive'] as const,
  registers: [metricsRegistry],
});
for (const d of CSP_DIRECTIVES) cspViolationsTotal.labels(d).inc(0);
