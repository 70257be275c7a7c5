import type { FastifyInstance } from 'fastify';
import {
  PURCHASE_IP_DAYS,
  purgeInvoiceNames,
  purgePurchaseIps,
  purgeUnverifiedAccounts,
} from '../modules/privacy/purges.repository';
import type { Job } from './runner';

const BATCH = 500;
const DAY_MS = 86_400_000;

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'log'>;

async function inBatches(purge: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await purge(BATCH);
    total += n;
    if (n < BATCH) return total;
  }
}

/**
 * The privacy purges of decision 0058: accounts never verified after UNVERIFIED_ACCOUNT_DAYS, and
 * the names on deleted accounts' tax invoices after INVOICE_RETENTION_YEARS, and the addresses orders
 * were paid from after PURCHASE_IP_DAYS. Each logs what it did.
 */
export async function runPrivacyPurges(
  app: Deps,
): Promise<{ unverifiedAccounts: number; invoiceNames: number; purchaseIps: number }> {
  const now = app.clock.now();
  const unverifiedBefore = new Date(now.getTime() - app.config.UNVERIFIED_ACCOUNT_DAYS * DAY_MS);
  const paidBefore = new Date(now);
  paidBefore.setUTCFullYear(paidBefore.getUTCFullYear() - app.config.INVOICE_RETENTION_YEARS);
  const unverifiedAccounts = await inBatches((limit) => purgeUnverifiedAccounts(app.db, unverifiedBefore, limit));
  const invoiceNames = await inBatches((limit) => purgeInvoiceNames(app.db, paidBefore, limit));
  const ipsBefore = new Date(now.getTime() - PURCHASE_IP_DAYS * DAY_MS);
  const purchaseIps = await inBatches((limit) => purgePurchaseIps(app.db, ipsBefore, limit));
  if (unverifiedAccounts || invoiceNames || purchaseIps)
    app.log.info({ unverifiedAccounts, invoiceNames, purchaseIps }, 'privacy purges');
  return { unverifiedAccounts, invoiceNames, purchaseIps };
}

export function privacyPurgesJob(app: FastifyInstance): Job {
  return { name: 'privacy-purges', intervalMs: 60 * 60_000, run: async () => void (await runPrivacyPurges(app)) };
}
