import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { type Dispute, type DisputeEvidence, type DisputeStatus } from '@kringle/contracts/disputes';
import type { Tx } from '../../db/client';
import { transactionWithRetry } from '../../db/retry-transaction';
import { errors, notFound } from '../../lib/errors';
import { isStripeUnavailable, paymentsUnavailable, stripeOf } from '../../plugins/stripe';
import { STRIPE, type Actor } from '../audit-trail/audit-entries.repository';
import { paymentReceipt } from '../orders/orders.service';
import { draftEvidence, stripeEvidence, withStatement } from './dispute-evidence';
import { audit, isClosed, isOpen, supersedes } from './dispute-rules';
import {
  evidenceFacts,
  findDispute,
  insertDispute,
  keepReceiptFile,
  listDisputes,
  lockDispute,
  markStaged,
  markSubmitted,
  orderOfPayment,
  orderOwner,
  unstagedDisputeIds,
  updateDisputeState,
  type DisputeRow,
  type StripeDisputeState,
} from './disputes.repository';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'stripe' | 'log'>;

const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : (v?.id ?? null));

function stateOf(d: Stripe.Dispute, order: { orderId: string; bookingId: string }, at: Date): StripeDisputeState {
  const status = d.status as DisputeStatus;
  return {
    id: d.id,
    ...order,
    chargeId: idOf(d.charge) ?? '',
    reason: d.reason,
    amountCents: d.amount,
    currency: d.currency,
    status,
    dueBy: d.evidence_details?.due_by ? new Date(d.evidence_details.due_by * 1000) : null,
    eventAt: at,
    createdAt: new Date(d.created * 1000),
    closedAt: isClosed(status) ? at : null,
  };
}

/** Stripe's view of a dispute, applied if it is newer than ours; the trail says when it opened and closed. */
async function applyState(tx: Tx, next: StripeDisputeState, at: Date): Promise<void> {
  if (await insertDispute(tx, next)) {
    const opened = { status: next.status, reason: next.reason, amountCents: next.amountCents };
    await audit(tx, next, { at, actor: STRIPE, action: 'dispute.opened' }, opened);
    if (isClosed(next.status))
      await audit(tx, next, { at, actor: STRIPE, action: 'dispute.closed' }, { status: next.status });
    return;
  }
  const current = await lockDispute(tx, next.id);
  if (!current || !supersedes(current, next)) return;
  await updateDisputeState(tx, next);
  if (isClosed(next.status))
    await audit(
      tx,
      next,
      { at, actor: STRIPE, action: 'dispute.closed' },
      { status: next.status, from: current.status },
    );
}

/**
 * charge.dispute.created / .updated / .closed: the dispute put on its order, in its transaction with
 * the event's record (`firstTime`, false for a redelivery). Then the evidence is staged, derived from
 * state, so a redelivery after a failed Stripe call stages it too; the job tries again later.
 */
export async function applyDisputeEvent(
  deps: Deps,
  dispute: Stripe.Dispute,
  eventCreated: number,
  firstTime: (tx: Tx) => Promise<boolean>,
): Promise<void> {
  const intentId = idOf(dispute.payment_intent);
  const applied = await transactionWithRetry(deps.db, async (tx) => {
    if (!(await firstTime(tx))) return true;
    const order = intentId ? await orderOfPayment(tx, intentId) : null;
    if (!order) {
      deps.log.warn({ disputeId: dispute.id, intentId }, 'a dispute on a payment that is not ours');
      return false;
    }
    await applyState(tx, stateOf(dispute, order, new Date(eventCreated * 1000)), deps.clock.now());
    return true;
  });
  if (!applied) return;
  await stageEvidence(deps, dispute.id).catch((err: unknown) =>
    deps.log.warn({ err, disputeId: dispute.id }, 'dispute evidence not staged yet: the job tries again'),
  );
}

const keyOf = (kind: string, id: string, body: unknown) =>
  `dispute-${kind}-${id}-${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 16)}`;

/**
 * The order's tax invoice as an upload for the `receipt`, made once per dispute (the id is kept);
 * null when the order has none (not paid) or it could not be made.
 */
async function receiptFile(deps: Deps, dispute: DisputeRow): Promise<string | null> {
  if (dispute.receiptFileId) return dispute.receiptFileId;
  const userId = await orderOwner(deps.db, dispute.orderId);
  if (!userId) return null;
  // An invoice that cannot be made leaves the receipt as text (stripeEvidence), never the dispute unanswered.
  const invoice = await paymentReceipt(deps, userId, dispute.bookingId, dispute.orderId).catch((err: unknown) => {
    deps.log.error({ err, disputeId: dispute.id }, 'tax invoice for dispute evidence not made: sent as text');
    return null;
  });
  if (!invoice) return null;
  const { filename, pdf } = invoice;
  const file = await stripeOf(deps).files.create(
    { purpose: 'dispute_evidence', file: { data: pdf, name: filename, type: 'application/pdf' } },
    { idempotencyKey: keyOf('receipt', dispute.id, createHash('sha256').update(pdf).digest('hex')) },
  );
  return keepReceiptFile(deps.db, dispute.id, file.id);
}

/** Drafts the evidence and stages it on Stripe (submit:false), once, while the dispute waits for it. */
export async function stageEvidence(deps: Deps, id: string): Promise<void> {
  const dispute = await findDispute(deps.db, id);
  if (!dispute || dispute.evidenceStagedAt || !isOpen(dispute)) return;
  const facts = await evidenceFacts(deps.db, dispute.orderId);
  // A dispute can arrive before the payment's own webhook: staged now, its draft would lack the tax
  // invoice for good. The payment's success stages it (stageOrderDisputes), or the job does.
  if (!facts || !facts.order.paidAt) return;
  const evidence = draftEvidence(facts);
  const body = { evidence: stripeEvidence(evidence, { receipt: await receiptFile(deps, dispute) }), submit: false };
  await stripeOf(deps).disputes.update(id, body, { idempotencyKey: keyOf('stage', id, body) });
  const at = deps.clock.now();
  await transactionWithRetry(deps.db, async (tx) => {
    if (await markStaged(tx, id, evidence, at))
      await audit(
        tx,
        dispute,
        { at, actor: STRIPE, action: 'dispute.evidence_staged' },
        { fields: Object.keys(body.evidence) },
      );
  });
}

/** The order was just paid: a dispute that came first and waited for it is drafted now. */
export async function stageOrderDisputes(deps: Deps, orderId: string): Promise<void> {
  for (const id of await unstagedDisputeIds(deps.db, 5, orderId))
    await stageEvidence(deps, id).catch((err: unknown) =>
      deps.log.warn({ err, disputeId: id }, 'dispute evidence not staged yet: the job tries again'),
    );
}

/** The job: disputes whose draft did not reach Stripe (it was down, or the process died). */
export async function stageDueEvidence(deps: Deps): Promise<number> {
  let staged = 0;
  for (const id of await unstagedDisputeIds(deps.db, 20)) {
    try {
      await stageEvidence(deps, id);
      staged += 1;
    } catch (err) {
      deps.log.warn({ err, disputeId: id }, 'dispute evidence not staged');
    }
  }
  return staged;
}

export function toDispute(d: DisputeRow): Dispute {
  const iso = (v: Date | null) => v?.toISOString() ?? null;
  return {
    id: d.id,
    orderId: d.orderId,
    bookingId: d.bookingId,
    bookingReference: d.bookingReference,
    locationId: d.locationId,
    reason: d.reason,
    amountCents: d.amountCents,
    status: d.status,
    dueBy: iso(d.dueBy),
    evidence: d.evidence,
    evidenceStagedAt: iso(d.evidenceStagedAt),
    receiptFileId: d.receiptFileId,
    submittedAt: iso(d.submittedAt),
    submittedBy: d.submittedBy,
    submitReason: d.submitReason,
    createdAt: d.createdAt.toISOString(),
    closedAt: iso(d.closedAt),
  };
}

/** GET /staff/disputes: the caller's locations (empty list = every location). */
export async function disputesFor(deps: Pick<Deps, 'db'>, locationIds: string[]): Promise<Dispute[]> {
  return (await listDisputes(deps.db, locationIds.length ? locationIds : null)).map(toDispute);
}

/**
 * POST /staff/disputes/{id}/submit: the draft (made now if it never was) with support's statement
 * first, submitted to Stripe. Two people submitting at once: Stripe takes one, the other gets 409.
 */
export async function submitDispute(
  deps: Deps,
  staff: { userId: string; email: string },
  id: string,
  reason: string,
  assertLocation: (locationId: string) => void,
): Promise<Dispute> {
  const stripe = stripeOf(deps);
  const dispute = await findDispute(deps.db, id);
  if (!dispute) throw notFound('That dispute');
  assertLocation(dispute.locationId);
  if (!isOpen(dispute)) throw errors.disputeClosed();
  let draft: DisputeEvidence | null = dispute.evidence;
  if (!draft) {
    const facts = await evidenceFacts(deps.db, dispute.orderId);
    if (!facts) throw notFound('That dispute');
    draft = draftEvidence(facts);
  }
  const evidence = withStatement(draft, reason);
  let answer: Stripe.Dispute;
  let body: { evidence: Record<string, string>; submit: true };
  try {
    body = { evidence: stripeEvidence(evidence, { receipt: await receiptFile(deps, dispute) }), submit: true };
    answer = await stripe.disputes.update(id, body, { idempotencyKey: keyOf('submit', id, body) });
  } catch (err) {
    if (isStripeUnavailable(err)) throw paymentsUnavailable();
    // Submitted already (by someone else, or in Stripe's dashboard), or closed there.
    if (err instanceof Stripe.errors.StripeInvalidRequestError) throw errors.disputeClosed();
    throw err;
  }
  const at = deps.clock.now();
  await transactionWithRetry(deps.db, async (tx) => {
    const current = await lockDispute(tx, id);
    if (!current || current.submittedAt) return;
    await markSubmitted(tx, id, { at, by: staff.userId, reason, evidence });
    const actor: Actor = { kind: 'staff', id: staff.userId, email: staff.email };
    await audit(
      tx,
      current,
      { at, actor, action: 'dispute.submitted' },
      { fields: Object.keys(body.evidence) },
      reason,
    );
    await applyState(tx, stateOf(answer, { orderId: current.orderId, bookingId: current.bookingId }, at), at);
  });
  return toDispute((await findDispute(deps.db, id))!);
}
