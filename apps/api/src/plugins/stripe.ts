import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import Stripe from 'stripe';

declare module 'fastify' {
  interface FastifyInstance {
    /** The official SDK, against Stripe or (STRIPE_API_URL) the local sandbox; null when not configured. */
    stripe: Stripe | null;
  }
}

export function createStripeClient(secretKey: string, apiUrl?: string): Stripe {
  const target = apiUrl ? new URL(apiUrl) : null;
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    ...(target
      ? { host: target.hostname, port: Number(target.port || (target.protocol === 'https:' ? 443 : 80)), protocol: target.protocol.replace(':', '') as 'http' | 'https' }
      : {}),
  });
}

export const stripePlugin = fp(
  async (app: FastifyInstance) => {
    const { STRIPE_SECRET_KEY: key, STRIPE_API_URL: url } = app.config;
    app.decorate('stripe', key ? createStripeClient(key, url) : null);
  },
  { name: 'stripe' },
);
