import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { addressPlace } from '../../lib/address-place';

/**
 * Where a hold is taken from (decision 0069): sessions of one location's day held at once from one
 * address are capped (HOLD_ADDRESS_LIMIT), in the hold's own statement. The address is stored as a
 * keyed hash, never as itself: the key is the app-check secret, the same in every API process.
 */

type Deps = Pick<FastifyInstance, 'config' | 'secrets'>;

/** The cap in force: 0 when HOLD_ADDRESS_LIMIT is 0 or every limit is off (RATE_LIMIT_MODE=off: load tests). */
export const holdAddressLimit = (deps: Pick<FastifyInstance, 'config'>): number =>
  deps.config.RATE_LIMIT_MODE === 'off' ? 0 : deps.config.HOLD_ADDRESS_LIMIT;

/** The stored form of a client's address, or null when no cap is in force (nothing is stored then). */
export function holdAddressOf(deps: Deps, ip: string): string | null {
  return holdFromOf(deps, ip).address;
}

/** Where a hold is asked from and the cap in force, in one call (the hold's route). */
export function holdFromOf(deps: Deps, ip: string): { address: string | null; limit: number } {
  const limit = holdAddressLimit(deps);
  return { address: limit === 0 ? null : keyedAddress(deps, ip), limit };
}

const keyedAddress = (deps: Deps, ip: string): string =>
  createHmac('sha256', deps.secrets.appCheckSecret)
    .update(`hold-address:${addressPlace(ip)}`)
    .digest('base64url')
    .slice(0, 22);
