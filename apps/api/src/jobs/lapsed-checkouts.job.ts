import type { FastifyInstance } from 'fastify';
import { settleLapsedCheckouts } from '../modules/payments/unpaid-checkouts.service';
import type { Job } from './runner';

/**
 * Unpaid checkouts whose hold lapsed: each PaymentIntent is read first, so one that was paid (its
 * webhook late or lost) is confirmed, and the rest are cancelled with their intents.
 */
export function lapsedCheckoutsJob(app: FastifyInstance): Job {
  return {
    name: 'lapsed-checkouts',
    intervalMs: 15_000,
    async run() {
      // Bounded: a checkout Stripe cannot be asked about now stays for the next pass.
      for (let i = 0; i < 20 && (await settleLapsedCheckouts(app)) > 0; i++);
    },
  };
}
