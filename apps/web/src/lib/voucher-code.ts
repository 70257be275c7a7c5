import {
  formatVoucherCode,
  normalizeVoucherCode,
  VOUCHER_ALPHABET,
  VOUCHER_CODE_LENGTH,
} from '@kringle/contracts/vouchers';

/**
 * A gift voucher code as a family types it (any case, spaces or hyphens), shared by the gift pages and the booking
 * wizard's Overview (decision 0112). A code that cannot be one is said here, before it is sent: every wrong code the
 * API sees counts towards its limit of 10 an hour.
 */
export const VOUCHER_CODE_EXAMPLE = 'ABCD-EFGH-JKMN';
export const VOUCHER_CODE_SHAPE = `A voucher code is 12 letters and numbers, like ${VOUCHER_CODE_EXAMPLE}.`;

/** The code in its shown form (XXXX-XXXX-XXXX), or null when what was typed cannot be a voucher code. */
export function voucherCodeOf(typed: string): string | null {
  const code = normalizeVoucherCode(typed.trim());
  if (code.length !== VOUCHER_CODE_LENGTH) return null;
  if (![...code].every((c) => VOUCHER_ALPHABET.includes(c))) return null;
  return formatVoucherCode(code);
}

/** Why what was typed is not a code ('' when it may be one). */
export function voucherCodeProblem(typed: string): string {
  if (!typed.trim()) return 'Enter the voucher code.';
  return voucherCodeOf(typed) ? '' : VOUCHER_CODE_SHAPE;
}

/** The code a certificate's QR or an e-mail link carries in the fragment (/gift/redeem#XXXX-XXXX-XXXX). */
export function voucherCodeFromHash(hash: string): string {
  let raw = hash.replace(/^#/, '');
  try {
    raw = decodeURIComponent(raw);
  } catch {
    // Not percent-encoded as a URL would be: take it as it is.
  }
  return raw.trim().slice(0, 40);
}
