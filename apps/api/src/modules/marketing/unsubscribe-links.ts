import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/**
 * Unsubscribe links (RFC 8058): `<user id>.<22 characters>`, the tail 128 bits of HMAC-SHA256 over
 * the account's id under the key migration 0037 generated. Stateless, so a link in a mail of any
 * age keeps working, and one link ends the news whichever mail it came from. It can only switch
 * news off: nothing else is done with it.
 */
const keys = new WeakMap<DbOrTx, Buffer>();
const TOKEN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{22})$/;

async function signingKey(db: DbOrTx): Promise<Buffer> {
  const known = keys.get(db);
  if (known) return known;
  const { rows } = await db.execute(sql`select secret from unsubscribe_keys where id = 1`);
  const secret = rows[0]?.secret as string | undefined;
  if (!secret) throw new Error('unsubscribe_keys has no key: migration 0037 has not run');
  const key = Buffer.from(secret, 'utf8');
  keys.set(db, key);
  return key;
}

const mac = (key: Buffer, userId: string) =>
  createHmac('sha256', key).update(`unsubscribe:${userId}`).digest().subarray(0, 16);

export async function unsubscribeToken(db: DbOrTx, userId: string): Promise<string> {
  return `${userId}.${mac(await signingKey(db), userId).toString('base64url')}`;
}

/** The account a token names, or null when it is forged or malformed. */
export async function userOfToken(db: DbOrTx, token: string): Promise<string | null> {
  const m = TOKEN.exec(token);
  if (!m) return null;
  const expected = mac(await signingKey(db), m[1]!);
  const given = Buffer.from(m[2]!, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? m[1]! : null;
}

/** The one-click address (List-Unsubscribe, RFC 8058): POST answers at once; GET shows a button. */
export const unsubscribeUrl = (publicUrl: string, token: string) =>
  `${publicUrl}/api/v1/marketing/unsubscribe?token=${encodeURIComponent(token)}`;
