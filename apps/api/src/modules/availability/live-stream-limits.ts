import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';

import { addressPlace } from '../../lib/address-place';
import { errors } from '../../lib/errors';
import { SIGNED_OUT_CHANNEL } from '../accounts/refresh-tokens.repository';

export interface LiveStreamLimits {
  perAccount: number;
  perAddress: number;
}

/**
 * This process's open live streams by account and by address (decision 0048: the caps hold per
 * process; N processes behind nginx allow up to N times as many, and nginx's limit_conn bounds
 * an address across them). An address counts by its place (addressPlace: an IPv6 one by its /64).
 * `endUser` closes an account's streams when it signs out.
 */
export class LiveStreamRegistry {
  private readonly byUser = new Map<string, Set<() => void>>();
  private readonly byAddress = new Map<string, number>();

  constructor(private readonly limits: LiveStreamLimits | null) {}

  /** Which cap a new stream would pass, or null when it may open. */
  refusal(userId: string, ip: string): 'account' | 'address' | null {
    if (!this.limits) return null;
    if ((this.byUser.get(userId)?.size ?? 0) >= this.limits.perAccount) return 'account';
    if ((this.byAddress.get(addressPlace(ip)) ?? 0) >= this.limits.perAddress) return 'address';
    return null;
  }

  /** Counts a stream until the returned release is called (once). */
  add(userId: string, ip: string, end: () => void): () => void {
    const address = addressPlace(ip);
    const ends = this.byUser.get(userId) ?? new Set();
    ends.add(end);
    this.byUser.set(userId, ends);
    this.byAddress.set(address, (this.byAddress.get(address) ?? 0) + 1);
    return () => {
      ends.delete(end);
      if (!ends.size) this.byUser.delete(userId);
      const left = (this.byAddress.get(address) ?? 1) - 1;
      if (left > 0) this.byAddress.set(address, left);
      else this.byAddress.delete(address);
    };
  }

  endUser(userId: string): void {
    for (const end of [...(this.byUser.get(userId) ?? [])]) end();
  }

  /** Throws 429 RATE_LIMITED (Retry-After 30) when a new stream would pass a cap. */
  assertRoom(userId: string, ip: string): void {
    const refused = this.refusal(userId, ip);
    if (!refused) return;
    throw errors.rateLimited(
      refused === 'account'
        ? `At most ${this.limits!.perAccount} live updates can be open per account: close another tab.`
        : 'Too many live updates are open from this network. Try again in 30 seconds.',
      30,
    );
  }
}

/**
 * One LISTEN connection per process, opened with the first stream: a sign-out anywhere ends the
 * account's streams here. Losing it is logged and retried at the next stream; streams still end
 * at their token's expiry meanwhile.
 */
export function signOutListener(
  connectionOptions: pg.ClientConfig,
  registry: LiveStreamRegistry,
  log: FastifyBaseLogger,
) {
  let client: pg.Client | null = null;
  let ready: Promise<void> | null = null;
  let stopped = false;
  return {
    ensure(): Promise<void> {
      if (stopped) return Promise.resolve();
      ready ??= (async () => {
        const c = new pg.Client({ ...connectionOptions, application_name: 'kringle-api-sign-outs', keepAlive: true });
        c.on('notification', (msg) => {
          if (msg.payload) registry.endUser(msg.payload);
        });
        c.on('error', (err) =>
          log.warn({ err }, 'sign-out listener failed; live streams still end at their token expiry'),
        );
        c.on('end', () => {
          if (client !== c) return;
          client = null;
          ready = null;
        });
        try {
          await c.connect();
          await c.query(`listen ${SIGNED_OUT_CHANNEL}`);
          // A stop while connecting found no client to end.
          if (stopped) await c.end();
          else client = c;
        } catch (err) {
          log.warn({ err }, 'sign-out listener could not connect; live streams still end at their token expiry');
          ready = null;
          await c.end().catch(() => {});
        }
      })();
      return ready;
    },
    async stop(): Promise<void> {
      stopped = true;
      await client?.end().catch(() => {});
    },
  };
}
