import type { StripeEvent } from './stripe-objects';
import { signWebhookPayload } from './webhook-signature';

export interface WebhookRetryOptions {
  /** Delay before the second attempt; each later one doubles it. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** Attempts in all, the first included; after the last the event is given up. */
  maxAttempts: number;
  /** How long one attempt may take before it counts as failed. */
  timeoutMs: number;
}

export const DEFAULT_WEBHOOK_RETRY: WebhookRetryOptions = {
  initialDelayMs: 2_000,
  maxDelayMs: 5 * 60_000,
  maxAttempts: 12,
  timeoutMs: 10_000,
};

export interface DeliveryAttempt {
  eventId: string;
  /** Epoch milliseconds when the attempt started. */
  at: number;
  /** HTTP status, or null when the request failed (connection refused, timeout). */
  status: number | null;
  error: string | null;
  ok: boolean;
}

interface Delivery {
  event: StripeEvent;
  attempts: number;
  delivered: boolean;
  gaveUp: boolean;
  timer: NodeJS.Timeout | null;
  /** Waiting for resume() because webhooks were paused when it came due. */
  held: boolean;
}

/**
 * Sends events to the webhook endpoint the way Stripe does: signed at send time, one request per
 * event, no ordering between events, retried with exponential backoff until a 2xx answer.
 */
export class WebhookDispatcher {
  private readonly deliveries = new Map<string, Delivery>();
  private readonly log: DeliveryAttempt[] = [];
  private paused = false;
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];
  private stopped = false;

  constructor(
    private url: string | null,
    private readonly secret: string,
    private readonly retry: WebhookRetryOptions,
    private readonly onGiveUp?: (event: StripeEvent, attempt: DeliveryAttempt) => void,
  ) {}

  setUrl(url: string | null): void {
    this.url = url;
  }

  /** Queues a new event; it goes out at once unless webhooks are paused. */
  enqueue(event: StripeEvent): void {
    if (!this.url || this.stopped) return;
    const delivery: Delivery = { event, attempts: 0, delivered: false, gaveUp: false, timer: null, held: false };
    this.deliveries.set(event.id, delivery);
    this.schedule(delivery, 0);
  }

  pause(): void {
    this.paused = true;
  }

  /** Sends everything that came due while paused, in the order it was queued. */
  resume(): void {
    this.paused = false;
    for (const delivery of this.deliveries.values()) {
      if (delivery.held) {
        delivery.held = false;
        void this.attempt(delivery);
      }
    }
  }

  /** Events waiting for a successful delivery (held by a pause or between retries). */
  pending(): StripeEvent[] {
    return [...this.deliveries.values()].filter((d) => !d.delivered && !d.gaveUp).map((d) => d.event);
  }

  attempts(eventId?: string): DeliveryAttempt[] {
    return eventId ? this.log.filter((a) => a.eventId === eventId) : [...this.log];
  }

  /**
   * One attempt now, paused or not, delivered before or not: for a late, repeated or reordered
   * event in tests. A 2xx answer settles the event's own pending delivery.
   */
  async redeliver(event: StripeEvent): Promise<DeliveryAttempt> {
    const delivery = this.deliveries.get(event.id);
    if (delivery) {
      if (delivery.timer) clearTimeout(delivery.timer);
      delivery.timer = null;
      delivery.held = false;
    }
    const attempt = await this.send(event);
    if (delivery && !delivery.delivered && !delivery.gaveUp) {
      if (attempt.ok) delivery.delivered = true;
      else this.afterFailure(delivery, attempt);
    }
    this.checkIdle();
    return attempt;
  }

  /** Resolves once nothing is in flight or waiting on a retry timer (held events do not count). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stop(): void {
    this.stopped = true;
    for (const delivery of this.deliveries.values()) if (delivery.timer) clearTimeout(delivery.timer);
    this.deliveries.clear();
    this.checkIdle(true);
  }

  private schedule(delivery: Delivery, delayMs: number): void {
    delivery.timer = setTimeout(() => {
      delivery.timer = null;
      if (this.paused) {
        delivery.held = true;
        this.checkIdle();
      } else void this.attempt(delivery);
    }, delayMs);
  }

  private async attempt(delivery: Delivery): Promise<void> {
    if (delivery.delivered || delivery.gaveUp || this.stopped) return;
    const attempt = await this.send(delivery.event);
    if (attempt.ok) delivery.delivered = true;
    else if (!delivery.delivered) this.afterFailure(delivery, attempt);
    this.checkIdle();
  }

  private afterFailure(delivery: Delivery, attempt: DeliveryAttempt): void {
    delivery.attempts++;
    if (delivery.attempts >= this.retry.maxAttempts) {
      delivery.gaveUp = true;
      this.onGiveUp?.(delivery.event, attempt);
      return;
    }
    const delay = Math.min(this.retry.initialDelayMs * 2 ** (delivery.attempts - 1), this.retry.maxDelayMs);
    if (!this.stopped) this.schedule(delivery, delay);
  }

  private async send(event: StripeEvent): Promise<DeliveryAttempt> {
    const at = Date.now();
    const base = { eventId: event.id, at };
    if (!this.url) return this.record({ ...base, status: null, error: 'no webhook URL', ok: false });
    const payload = JSON.stringify(event, null, 2);
    this.inFlight++;
    try {
      const res = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'stripe-signature': signWebhookPayload(payload, this.secret),
        },
        body: payload,
        signal: AbortSignal.timeout(this.retry.timeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined);
      const ok = res.status >= 200 && res.status < 300;
      return this.record({ ...base, status: res.status, error: null, ok });
    } catch (err) {
      return this.record({ ...base, status: null, error: err instanceof Error ? err.message : String(err), ok: false });
    } finally {
      this.inFlight--;
    }
  }

  private record(attempt: DeliveryAttempt): DeliveryAttempt {
    this.log.push(attempt);
    return attempt;
  }

  private isIdle(): boolean {
    if (this.inFlight > 0) return false;
    for (const d of this.deliveries.values()) if (d.timer) return false;
    return true;
  }

  private checkIdle(force = false): void {
    if (!force && !this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
