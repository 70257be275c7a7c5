import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random base62 string, like the tail of Stripe's ids (`pi_3Q…`). */
export function randomToken(length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  // 248 is the largest multiple of 62 below 256: rejecting above it keeps the alphabet unbiased.
  for (let i = 0; out.length < length; i++) {
    const byte = i < bytes.length ? bytes[i]! : randomBytes(1)[0]!;
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

export function newId(prefix: string): string {
  return `${prefix}_${randomToken(24)}`;
}

export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}
