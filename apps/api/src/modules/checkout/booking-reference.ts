import { randomInt } from 'node:crypto';

// No 0/O, 1/I/L or U: easy to read out over the phone.
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A short human booking reference like KR-7K3Q9 (about 24 million values; uniqueness is enforced by an index). */
export function newBookingReference(): string {
  let code = '';
  for (let i = 0; i < 5; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `KR-${code}`;
}
