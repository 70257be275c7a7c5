import type { Credit } from '@kringle/contracts/credit';
import type { FastifyInstance } from 'fastify';
import { spendableCredit } from './credit-expiry';

type Deps = Pick<FastifyInstance, 'db' | 'clock'>;

/** The family's account credit: its balance (less what expired, entered or not yet) and every move, newest first. */
export async function accountCredit(deps: Deps, userId: string): Promise<Credit> {
  const { balanceCents, items } = await spendableCredit(deps.db, userId, deps.clock.now());
  return {
    balanceCents,
    items: items.map((e) => ({
      at: e.createdAt.toISOString(),
      cents: e.cents,
      reason: e.reason,
      bookingId: e.bookingId,
      expiresAt: e.expiresAt?.toISOString() ?? null,
    })),
  };
}
