import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

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

/** AES-256-GCM key derived from a token: only someone who holds the token can open what it sealed. */
function keyFrom(token: string): Buffer {
  return createHash('sha256').update(`kringle-seal:${token}`).digest();
}

/** Seals `secret` so that only a holder of `token` can open it (iv, tag and ciphertext, base64url). */
export function sealWith(token: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(token), iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** Opens what `sealWith(token, …)` sealed; null when the token or the seal does not match. */
export function openWith(token: string, sealed: string): string | null {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keyFrom(token), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
