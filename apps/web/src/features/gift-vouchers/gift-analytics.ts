import { centsToDollars, CURRENCY } from '@kringle/contracts/money';
import type { Voucher, VoucherPurchase } from '@kringle/contracts/vouchers';
import { track, type EcommerceParams } from '../../lib/analytics';

/** The spec's e-commerce events for a gift voucher (issue 52): the voucher is the one item, by its value. */
const voucherItem = (cents: number): EcommerceParams => ({
  currency: CURRENCY,
  value: centsToDollars(cents),
  items: [{ item_id: 'gift-voucher', item_name: 'Gift voucher', price: centsToDollars(cents), quantity: 1 }],
});

/** The family chose a value and pressed Continue: its payment is made. */
export function recordGiftCheckout(p: VoucherPurchase) {
  track('add_to_cart', voucherItem(p.amountCents));
  track('begin_checkout', { ...voucherItem(p.amountCents), transaction_id: p.voucherOrderId });
}

/** purchase, once the webhook made the voucher live: once per voucher, even across reloads. */
export function recordGiftPurchase(v: Voucher) {
  const key = `kringle:purchase:${v.id}`;
  try {
    if (window.sessionStorage.getItem(key)) return;
    window.sessionStorage.setItem(key, '1');
  } catch {
    // Storage unavailable: record anyway.
  }
  track('purchase', { ...voucherItem(v.amountCents), transaction_id: v.id });
}
