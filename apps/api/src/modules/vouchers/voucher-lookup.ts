import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { addressPlace } from '../../lib/address-place';
import { errors, notFound } from '../../lib/errors';
import { codeHash } from './voucher-codes';
import * as repo from './vouchers.repository';

type Deps = Pick<FastifyInstance, 'db' | 'clock'>;

/** 10 wrong codes an hour per account and per address (API.md), across every API process. */
export const MISSES_PER_HOUR = 10;
const HOUR_MS = 3_600_000;

/** The keys a wrong code counts under: the account, and the address (hashed: an address is personal data). */
const missKeys = (userId: string, ip: string) => [
  `user:${userId}`,
  `ip:${createHash('sha256').update(addressPlace(ip)).digest('hex')}`,
];

/**
 * The voucher a code names, as this family may see it: a code unknown, unpaid or in another account
 * is a wrong code (404, counted); past MISSES_PER_HOUR of them an hour, 429 before any lookup. A claim
 * finds another account's voucher too, to refuse it as claimed.
 */
export async function voucherByCode(deps: Deps, userId: string, ip: string, code: string, forClaim = false) {
  const now = deps.clock.now();
  const keys = missKeys(userId, ip);
  if ((await repo.missesSince(deps.db, keys, new Date(now.getTime() - HOUR_MS))) >= MISSES_PER_HOUR)
    throw errors.rateLimited('Too many wrong voucher codes. Try again in an hour.', HOUR_MS / 1000);
  const found = await repo.findVoucherByHash(deps.db, codeHash(code));
  const visible =
    found &&
    found.status !== 'pending' &&
    found.status !== 'failed' &&
    // A claim of another account's voucher is told so (409 VOUCHER_CLAIMED); a lookup of it is not.
    (forClaim || !found.ownerUserId || found.ownerUserId === userId || found.buyerUserId === userId);
  if (!visible) {
    await repo.recordMiss(deps.db, keys, now, new Date(now.getTime() - HOUR_MS));
    throw notFound('That voucher');
  }
  return found;
}
