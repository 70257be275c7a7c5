import { isIPv4, isIPv6 } from 'node:net';

/**
 * The part of a client's address that is one place: an IPv4 address as it is (an IPv4-mapped IPv6
 * one too), an IPv6 address by its /64, which one subscriber is given whole: counting single IPv6
 * addresses would let one home step around a cap with 2^64 of them. Every per-address count uses
 * it: the hold cap (decision 0069), the per-IP rate limits and the live streams per address.
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
  return `${full
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

const ipv4Groups = (v4: string): string[] => {
  const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
};
