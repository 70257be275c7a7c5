import type { FastifyInstance } from 'fastify';
import { checkDue, checkPaymentPage } from '../modules/payment-page/payment-page-check.service';
import { readInventory } from '../plugins/payment-page';
import type { Job } from './runner';

/** PCI DSS 11.6.1 asks for at least weekly; daily costs two requests. */
export const PAYMENT_PAGE_CHECK_EVERY_MS = 24 * 60 * 60_000;

/**
 * The payment-page check (decision 0098): each process looks hourly whether a day has passed since
 * the last check of the page by any process, and runs one if so (the service's advisory lock
 * keeps two from overlapping). Off with PAYMENT_PAGE_CHECK=off (a deployment whose page is served
 * elsewhere runs it from there).
 */
export function paymentPageCheckJob(app: FastifyInstance): Job {
  const url = `${app.config.PUBLIC_URL}${readInventory().checkPath}`;
  // The runner's first pass comes before the server listens: the page is fetched from the next one on.
  const startedAt = Date.now();
  return {
    name: 'payment-page-check',
    intervalMs: 60 * 60_000,
    async run() {
      if (app.config.PAYMENT_PAGE_CHECK === 'off' || Date.now() - startedAt < 60_000) return;
      if (await checkDue(app, url, PAYMENT_PAGE_CHECK_EVERY_MS)) await checkPaymentPage(app, url);
    },
  };
}
