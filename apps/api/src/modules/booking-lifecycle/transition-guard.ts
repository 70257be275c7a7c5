import type { FastifyBaseLogger } from 'fastify';
import type { Tx } from '../../db/client';
import { errors } from '../../lib/errors';
import type { BookingRow } from './booking-rows.repository';
import { insertAuditEntry, type Actor } from '../audit-trail/audit-entries.repository';
import { nextState, stateOf, type BookingState, type TransitionName } from './transition-table';

/**
 * Every change of a booking's, its order's and its session's state, by name (decision 0049). Each
 * runs inside the caller's transaction on rows the caller has locked, checks the move against
 * transition-table.ts and refuses an illegal one with ILLEGAL_TRANSITION and a log line, never
 * applying it. Services decide what to do (and say it by e-mail); only these write the state. The
 * order's payment and the refunds change through their own moves (order-payments/payment-moves.ts,
 * decision 0091), called from the transitions and audited in the booking's entry. The transitions
 * are in payment-transitions.ts (a booking bought: the checkout, its payment's outcomes, a walk-in
 * sold) and booking-change-transitions.ts (cancelled, moved, refunded in part, its details or
 * attendance changed); this file holds what they share: this context, the guard and the audit hook.
 */
export interface Ctx {
  tx: Tx;
  now: Date;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** Who asks for the change: written to the audit trail with it (decision 0051). */
  actor: Actor;
  /** Why, when a person says so (staff actions require it). */
  reason?: string;
}

export type Facts = Pick<BookingRow, 'id' | 'status' | 'cancelReason' | 'checkedInAt' | 'noShowAt'>;

/** The state the move leads to; throws (and logs) when the table refuses it. */
export function guard(ctx: Pick<Ctx, 'log'>, booking: Facts | undefined, transition: TransitionName): BookingState {
  const from = stateOf(booking);
  const to = nextState(from, transition);
  if (to) return to;
  ctx.log.error({ bookingId: booking?.id, transition, from }, 'illegal booking transition refused');
  throw errors.illegalTransition();
}

type Snapshot = Partial<Pick<BookingRow, 'id' | 'status' | 'cancelReason' | 'checkedInAt' | 'noShowAt' | 'slotId'>>;

/**
 * The one audit hook (decision 0051): every booking transition ends here, in the caller's
 * transaction, so a change and its entry commit or roll back together. `before` is the booking's
 * state and the old values of the fields the move changed; `after` the state and the new values.
 */
export async function audit(
  ctx: Pick<Ctx, 'tx' | 'now' | 'actor' | 'reason'>,
  action: TransitionName,
  booking: Snapshot & { id: string },
  change: { to: BookingState | null; set?: Record<string, unknown>; orderId?: string | null },
): Promise<void> {
  const set = change.set ?? {};
  const from = booking.status ? stateOf(booking as Facts) : null;
  const old = Object.fromEntries(Object.keys(set).map((k) => [k, (booking as Record<string, unknown>)[k] ?? null]));
  await insertAuditEntry(ctx.tx, {
    at: ctx.now,
    actor: ctx.actor,
    action,
    bookingId: booking.id,
    orderId: change.orderId ?? null,
    reason: ctx.reason ?? null,
    before: { state: from, ...old },
    after: { state: change.to ?? from, ...set },
  });
}
