import type { Credit } from '@kringle/contracts/credit';
import type { FastifyInstance } from 'fastify';
import { creditOf } from './credit.repository';

type Deps = Pick<FastifyInstance, 'db'>;

/** The family's account credit: its balance and every move, newest first. */
export async function accountCredit(deps: Deps, userId: string): Promise<Credit> {
  const { balanceCents, items } = await creditOf(deps.db, userId);
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
