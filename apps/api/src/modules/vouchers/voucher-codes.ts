import { createHash, createHmac } from 'node:crypto';
import { formatVoucherCode, VOUCHER_ALPHABET, VOUCHER_CODE_LENGTH } from '@kringle/contracts/vouchers';

/*
 * A voucher's code (decision 0112): 12 letters of a 32-letter alphabet (60 bits) taken from
 * HMAC-SHA256(key, id). The id is random, so the code is too for anyone without the key; the table
 * keeps only the code's SHA-256, and the server derives the code again for its buyer's certificate.
 */

/** The code of voucher `id`, unformatted (12 letters). */
export function voucherCode(key: string, id: string): string {
  const mac = createHmac('sha256', key).update(`voucher:${id}`).digest();
  // 5 bits a letter from the MAC's first 60 bits: read as a big integer, no letter favoured.
  let bits = mac.readBigUInt64BE(0) >> 4n;
  let code = '';
  for (let i = 0; i < VOUCHER_CODE_LENGTH; i++) {
    code = VOUCHER_ALPHABET[Number(bits & 31n)] + code;
    bits >>= 5n;
  }
  return code;
}

/** What the table keeps and looks up by: the SHA-256 of the normalised code. */
export const codeHash = (code: string) => createHash('sha256').update(code).digest('hex');

/** Shown to an account that neither bought nor claimed it: the last four letters only. */
export const maskedCode = (code: string) => `••••-••••-${code.slice(-4)}`;

export const shownCode = (code: string, visible: boolean) => (visible ? formatVoucherCode(code) : maskedCode(code));
