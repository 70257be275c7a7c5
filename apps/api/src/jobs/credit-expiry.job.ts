import type { FastifyInstance } from 'fastify';
import { expireCredit } from '../modules/credit/credit-expiry';
import type { Job } from './runner';

/**
 * Account credit lasts three years (API.md: "Credit lasts as a voucher does"): each pass enters
 * what lapsed as 'expired'. A spend does the same first under its lock, so the job only keeps the
 * ledger (reports, the export) true for families who are not booking.
 */
export function creditExpiryJob(app: FastifyInstance): Job {
  return {
    name: 'credit-expiry',
    intervalMs: 60 * 60_000,
    run: async () => {
      const families = await expireCredit(app);
      if (families) app.log.info({ families }, 'account credit expired');
    },
  };
}
