import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import Stripe from 'stripe';
import { errors } from '../lib/errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** The official SDK, against Stripe or (STRIPE_API_URL) the local sandbox; null when not configured. */
    stripe: Stripe | null;
  }
}

/** The Stripe client, or 503 SERVICE_UNAVAILABLE when card payments are not configured. */
export function stripeOf(deps: Pick<FastifyInstance, 'stripe'>): Stripe {
  if (!deps.stripe) throw errors.cardPaymentsUnavailable();
  return deps.stripe;
}

export interface StripeClientOptions {
  apiUrl?: string;
  timeoutMs?: number;
  maxNetworkRetries?: number;
}

/**
 * The SDK retries connection errors, timeouts, 409 and 5xx answers itself, and every POST we make
 * carries our own idempotency key, so a retry of a call that reached Stripe replays its result
 * instead of charging, refunding or cancelling twice.
 */
export function createStripeClient(secretKey: string, options: StripeClientOptions = {}): Stripe {
  const target = options.apiUrl ? new URL(options.apiUrl) : null;
  return new Stripe(secretKey, {
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    timeout: options.timeoutMs ?? 8_000,
    ...(target
      ? {
          host: target.hostname,
          port: Number(target.port || (target.protocol === 'https:' ? 443 : 80)),
          protocol: target.protocol.replace(':', '') as 'http' | 'https',
        }
      : {}),
  });
}

/** Stripe could not be reached or failed on its side (after the SDK's retries): worth retrying later. */
export function isStripeUnavailable(err: unknown): boolean {
  return (
    err instanceof Stripe.errors.StripeConnectionError ||
    err instanceof Stripe.errors.StripeAPIError ||
    err instanceof Stripe.errors.StripeRateLimitError ||
    (err instanceof Stripe.errors.StripeError && (err.statusCode ?? 0) >= 500)
  );
}

export const paymentsUnavailable = () =>
  errors.serviceUnavailable(
    'Card payments are not available right now. Your session is still held: please try again in a moment.',
    { 'retry-after': '5' },
  );

export const stripePlugin = fp(
  async (app: FastifyInstance) => {
    const {
      STRIPE_SECRET_KEY: key,
      STRIPE_API_URL: apiUrl,
      STRIPE_TIMEOUT_MS: timeoutMs,
      STRIPE_MAX_NETWORK_RETRIES: maxNetworkRetries,
    } = app.config;
    app.decorate('stripe', key ? createStripeClient(key, { apiUrl, timeoutMs, maxNetworkRetries }) : null);
  },
  { name: 'stripe' },
);
