import fs from 'node:fs';
import path from 'node:path';
import { API_ROOT } from '../lib/api-root';

/**
 * The payment pages' script inventory (ops/payment-page-scripts.json, decision 0098): PCI DSS
 * 4.0.1 SAQ A asks that the page which embeds Stripe's card fields is "not susceptible to attacks
 * from scripts". Their CSP's script-src is the inventory's, read here once at start, and the
 * payment-page check compares what is served with the same file.
 */
export interface PaymentPageInventory {
  version: string;
  pages: string[];
  checkPath: string;
  scriptSrc: string[];
  scripts: { id: string; match: string; firstParty: boolean; why: string; approvedBy: string; approvedOn: string }[];
  headers: Record<string, string>;
}

export const INVENTORY_FILE = path.resolve(API_ROOT, '../../ops/payment-page-scripts.json');

export function readInventory(file = INVENTORY_FILE): PaymentPageInventory {
  const inventory = JSON.parse(fs.readFileSync(file, 'utf8')) as PaymentPageInventory;
  for (const s of inventory.scripts) new RegExp(s.match); // a bad pattern fails the start, not a check
  return inventory;
}

/** Where violation reports go (report-uri, and Reporting-Endpoints' `csp` for report-to). */
export const CSP_REPORT_PATH = '/api/v1/csp-reports';

/** `/create-booking` or `/bookings/:id/photos` → a test of a request URL (query string allowed). */
export function paymentPageMatcher(pages: string[]): (url: string) => boolean {
  const patterns = pages.map(
    (p) => new RegExp(`^${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[a-z]+/gi, '[^/?#]+')}/?(?:[?#].*)?$`),
  );
  return (url) => patterns.some((re) => re.test(url));
}
