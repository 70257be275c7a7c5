import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Seals a rotated refresh token's successor with a key derived from the rotated token itself
 * (decision 0005). Only whoever holds the rotated token can open it, so the database, which keeps
 * tokens as hashes only, still yields nothing usable if it leaks; and no server key has to be kept.
 * The family id is bound in as associated data, so a sealed value moved to another row fails.
 */
const INFO = Buffer.from('kringle refresh successor v1');
const IV_BYTES = 12;
const TAG_BYTES = 16;

function keyFrom(token: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(token, 'utf8'), Buffer.alloc(0), INFO, 32));
}

export function sealSuccessor(rotatedToken: string, familyId: string, successor: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(rotatedToken), iv);
  cipher.setAAD(Buffer.from(familyId, 'utf8'));
  const body = Buffer.concat([cipher.update(successor, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The successor, or null when the sealed value does not open with this token (tampered or foreign). */
export function openSuccessor(rotatedToken: string, familyId: string, sealed: string): string | null {
  const raw = Buffer.from(sealed, 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFrom(rotatedToken), raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(familyId, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}
