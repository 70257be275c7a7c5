import { DISPUTE_OPEN_STATUSES, type DisputeStatus } from '@kringle/contracts/disputes';
import type { Tx } from '../../db/client';
import { insertAuditEntry, type Actor } from '../audit-trail/audit-entries.repository';
import type { DisputeRow, StripeDisputeState } from './disputes.repository';

/**
 * A dispute only moves forward (needs a response → under review → closed); events of one rank
 * apply in the order Stripe made them, so a late or repeated delivery changes nothing.
 */
const RANK: Record<DisputeStatus, number> = {
  warning_needs_response: 0,
  needs_response: 1,
  warning_under_review: 2,
  under_review: 2,
  warning_closed: 3,
  won: 3,
  lost: 3,
  prevented: 3,
};
export const isClosed = (status: DisputeStatus) => RANK[status] === 3;
export const isOpen = (d: Pick<DisputeRow, 'status' | 'submittedAt'>) =>
  d.submittedAt === null && DISPUTE_OPEN_STATUSES.includes(d.status);

export function supersedes(
  current: Pick<DisputeRow, 'status' | 'stripeEventAt'>,
  next: Pick<StripeDisputeState, 'status' | 'eventAt'>,
): boolean {
  if (isClosed(current.status)) return false;
  const [a, b] = [RANK[current.status], RANK[next.status]];
  return b > a || (b === a && next.eventAt >= current.stripeEventAt);
}

/** A dispute's entry in the audit trail: the dispute named in `after`, one entry per move. */
export async function audit(
  tx: Tx,
  d: { id: string; orderId: string; bookingId: string },
  e: {
    at: Date;
    actor: Actor;
    action: 'dispute.opened' | 'dispute.evidence_staged' | 'dispute.submitted' | 'dispute.closed';
  },
  after: Record<string, unknown>,
  reason: string | null = null,
) {
  await insertAuditEntry(tx, {
    at: e.at,
    actor: e.actor,
    action: e.action,
    bookingId: d.bookingId,
    orderId: d.orderId,
    reason,
    before: {},
    after: { disputeId: d.id, ...after },
  });
}
