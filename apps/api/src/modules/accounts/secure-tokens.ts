import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: refresh tokens and e-mail action codes. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Tokens are stored as SHA-256 only: they are long random values (no need for a slow hash),
 * and a database leak then yields nothing usable.
 */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
