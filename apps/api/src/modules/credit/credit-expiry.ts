import { CREDIT_LIFETIME_YEARS } from '@kringle/contracts/credit';

/** Credit given now lasts as a gift voucher does (three years, the Australian gift-card rule). */
export function creditExpiry(now: Date): Date {
  const at = new Date(now);
  at.setUTCFullYear(at.getUTCFullYear() + CREDIT_LIFETIME_YEARS);
  return at;
}
