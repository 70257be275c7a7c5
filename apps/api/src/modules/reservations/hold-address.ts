import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Where a hold is taken from (decision 0069): sessions of one location's day held at once from one
 * address are capped (HOLD_ADDRESS_LIMIT), in the hold's own statement. The address is stored as a
 * keyed hash, never as itself: the key is the app-check secret, the same in every API process.
 */

/**
 * The part of a client's address that is one place: an IPv4 address as it is (an IPv4-mapped IPv6
 * one too), an IPv6 address by its /64, which one subscriber is given whole: counting single IPv6
 * addresses would let one home step around the cap with 2^64 of them.
 */
export function addressPlace(ip: string): string {
  const bare = ip.split('%')[0]!.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped) return mapped[1]!;
  if (!isIPv6(bare)) return bare;
  const groups = (part: string) => (part ? part.split(':') : []).flatMap((g) => (isIPv4(g) ? ipv4Groups(g) : [g]));
  const [head, tail] = bare.includes('::') ? bare.split('::') : [bare, undefined];
  const left = groups(head!);
  const right = tail === undefined ? [] : groups(tail);
  const full = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${full.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}

const ipv4Groups = (v4: string): string[] => {
  const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
};

type Deps = Pick<FastifyInstance, 'config' | 'secrets'>;

/** The cap in force: 0 when HOLD_ADDRESS_LIMIT is 0 or every limit is off (RATE_LIMIT_MODE=off: load tests). */
export const holdAddressLimit = (deps: Pick<FastifyInstance, 'config'>): number =>
  deps.config.RATE_LIMIT_MODE === 'off' ? 0 : deps.config.HOLD_ADDRESS_LIMIT;

/** The stored form of a client's address, or null when no cap is in force (nothing is stored then). */
export function holdAddressOf(deps: Deps, ip: string): string | null {
  if (holdAddressLimit(deps) === 0) return null;
  return createHmac('sha256', deps.secrets.appCheckSecret).update(`hold-address:${addressPlace(ip)}`).digest('base64url').slice(0, 22);
}
