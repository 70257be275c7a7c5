import type { FastifyInstance } from 'fastify';
import { cancelLapsedCheckouts } from '../modules/payments/unpaid-checkouts.service';
import { expireLapsedHolds } from '../modules/reservations/reservations.repository';
import type { Job } from './runner';

/**
 * Lapsed holds: readers already treat them as free, so for plain holds this only keeps the tables
 * honest; unpaid checkouts are cancelled along with their PaymentIntents.
 */
export function holdExpiryJob(app: FastifyInstance): Job {
  return {
    name: 'hold-expiry',
    intervalMs: 15_000,
    async run() {
      while ((await expireLapsedHolds(app.db, app.clock.now())) > 0) {
        // Keep going while full batches come back.
      }
      // Bounded: a checkout Stripe cannot be asked about now stays for the next pass.
      for (let i = 0; i < 20 && (await cancelLapsedCheckouts(app)) > 0; i++);
    },
  };
}
