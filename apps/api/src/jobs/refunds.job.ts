import type { FastifyInstance } from 'fastify';
import { duePendingRefunds } from '../modules/order-payments/refunds.repository';
import { sendRefund } from '../modules/payments/refunds.service';
import type { Job } from './runner';

/** Resends refunds that are still pending (Stripe down, process died). Idempotency keys make overlap harmless. */
export function refundsJob(app: FastifyInstance): Job {
  return {
    name: 'refunds',
    intervalMs: 30_000,
    async run() {
      const due = await duePendingRefunds(app.db, new Date(app.clock.now().getTime() - 60_000), 50);
      for (const id of due) await sendRefund(app, id);
    },
  };
}
