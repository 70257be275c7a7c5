export const CURRENCY = 'AUD' as const;
export type Currency = typeof CURRENCY;

/** Prices include GST (10%), so the GST part of a total is one eleventh, rounded to the cent. */
export function gstOf(totalCents: number): number {
  return Math.round(totalCents / 11);
}

const audFormat = new Intl.NumberFormat('en-AU', { style: 'currency', currency: 'AUD' });

/** 12345 → "$123.45" (Australian formatting; AUD is implied in this app). */
export function formatAud(cents: number): string {
  return audFormat.format(cents / 100);
}

/** Cents to dollars as a number, for analytics `value` fields. */
export function centsToDollars(cents: number): number {
  return Math.round(cents) / 100;
}
