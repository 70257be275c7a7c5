import type { FastifyInstance } from 'fastify';
import { RECONCILE_POLICY, reconcilePayments } from '../modules/payments/payment-reconciliation.service';
import type { Job } from './runner';

/**
 * Repairs payments whose webhook never arrived (see the service). Safe with several processes:
 * orders are claimed with SKIP LOCKED and a lease, and applying an intent's outcome is
 * state-driven, so a second look (or a late webhook) changes nothing.
 */
export function paymentReconciliationJob(app: FastifyInstance): Job {
  return {
    name: 'payment-reconciliation',
    intervalMs: app.config.PAYMENT_RECONCILE_INTERVAL_SECONDS * 1000,
    async run() {
      // Keep going while full batches come back, a bounded number of times per pass.
      for (let i = 0; i < 20 && (await reconcilePayments(app)) >= RECONCILE_POLICY.batchSize; i++);
    },
  };
}
