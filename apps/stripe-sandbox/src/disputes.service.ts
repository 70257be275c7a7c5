import { newId, unixNow } from './ids';
import { mergeMetadata, nested, type ParamsReader } from './params-reader';
import type { RequestInfo, SandboxState } from './sandbox-state';
import {
  DISPUTE_EVIDENCE_FIELDS,
  DISPUTE_FILE_FIELDS,
  type Charge,
  type Dispute,
  type DisputeEvidenceField,
} from './stripe-objects';
import { invalidParam, noSuchResource, StripeError } from './stripe-errors';

export const DISPUTE_UPDATE_FIELDS = ['evidence', 'metadata', 'submit'];
/** Stripe's test mode: submitted evidence whose uncategorized_text says one of these closes the dispute so. */
const TEST_OUTCOMES = { winning_evidence: 'won', losing_evidence: 'lost' } as const;
// Stripe allows 150,000 characters of text evidence in all; one field may not take more.
const MAX_EVIDENCE_TEXT = 150_000;
const DAY_S = 86_400;

export function getDispute(state: SandboxState, id: string): Dispute {
  const dispute = state.disputes.get(id);
  if (!dispute) throw noSuchResource('dispute', id);
  return dispute;
}

/** The cardholder disputes a successful charge as fraudulent, as Stripe's card 4000 0000 0000 0259 does. */
export function openDispute(state: SandboxState, charge: Charge, request: RequestInfo): Dispute {
  const created = unixNow();
  const evidence = {
    ...(Object.fromEntries(DISPUTE_EVIDENCE_FIELDS.map((f) => [f, null])) as Record<DisputeEvidenceField, null>),
    enhanced_evidence: {},
  };
  const dispute: Dispute = {
    id: newId('dp'),
    object: 'dispute',
    amount: charge.amount_captured - charge.amount_refunded,
    balance_transactions: [],
    charge: charge.id,
    created,
    currency: charge.currency,
    enhanced_eligibility_types: [],
    evidence,
    evidence_details: {
      // Card networks give the merchant about a week to answer.
      due_by: created + 7 * DAY_S,
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      submission_method: 'not_submitted',
    },
    intended_submission_method: null,
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    network_reason_code: '10.4',
    payment_intent: charge.payment_intent,
    payment_method_details: {
      type: 'card',
      card: {
        brand: charge.payment_method_details.card.brand,
        case_type: 'chargeback',
        network: charge.payment_method_details.card.brand,
        network_reason_code: '10.4',
      },
    },
    reason: 'fraudulent',
    status: 'needs_response',
  };
  state.disputes.set(dispute.id, dispute);
  charge.disputed = true;
  state.emit('charge.dispute.created', dispute, request);
  return dispute;
}

/**
 * Stages evidence (`submit=false`) or submits it (Stripe's default). Submitted, the dispute is under
 * review; Stripe's test words in uncategorized_text then close it as won or lost at once.
 */
export function updateDispute(state: SandboxState, id: string, p: ParamsReader, request: RequestInfo): Dispute {
  const dispute = getDispute(state, id);
  const source = p.object('evidence');
  const evidence = source ? nested(source, DISPUTE_EVIDENCE_FIELDS) : null;
  const changes: Partial<Record<DisputeEvidenceField, string | null>> = {};
  for (const field of DISPUTE_EVIDENCE_FIELDS) {
    const value = evidence?.string(`evidence[${field}]`, { max: MAX_EVIDENCE_TEXT });
    if (value === undefined) continue;
    // Stripe's file fields take the id of an upload made for dispute evidence.
    if (value !== '' && DISPUTE_FILE_FIELDS.includes(field)) {
      const upload = state.files.get(value);
      if (!upload || upload.file.purpose !== 'dispute_evidence')
        throw noSuchResource('file upload', value, `evidence[${field}]`);
    }
    changes[field] = value === '' ? null : value;
  }
  const metadata = p.metadata();
  const submit = p.boolean('submit') ?? true;
  if (dispute.status === 'won' || dispute.status === 'lost') throw closed(dispute);
  if (dispute.status === 'under_review' && (Object.keys(changes).length > 0 || submit)) {
    throw new StripeError({
      status: 400,
      type: 'invalid_request_error',
      message: `Dispute ${dispute.id} has already been submitted; its evidence can no longer be changed.`,
    });
  }
  const previous = {
    evidence: structuredClone(dispute.evidence),
    evidence_details: { ...dispute.evidence_details },
    metadata: { ...dispute.metadata },
    status: dispute.status,
  };
  Object.assign(dispute.evidence, changes);
  if (metadata !== undefined) dispute.metadata = mergeMetadata(dispute.metadata, metadata);
  dispute.evidence_details.has_evidence = DISPUTE_EVIDENCE_FIELDS.some((f) => dispute.evidence[f] !== null);
  if (submit) {
    dispute.status = 'under_review';
    dispute.evidence_details.submission_count += 1;
    dispute.evidence_details.submission_method = 'manual';
  }
  state.emit('charge.dispute.updated', dispute, request, changedOnly(previous, dispute));
  const text = dispute.evidence.uncategorized_text ?? '';
  const outcome = Object.entries(TEST_OUTCOMES).find(([word]) => text.includes(word))?.[1];
  if (submit && outcome) close(state, dispute, outcome, request);
  return dispute;
}

/** Accepting the dispute (`POST /v1/disputes/{id}/close`): the merchant concedes, the dispute is lost. */
export function acceptDispute(state: SandboxState, id: string, request: RequestInfo): Dispute {
  const dispute = getDispute(state, id);
  if (dispute.status === 'won' || dispute.status === 'lost') throw closed(dispute);
  close(state, dispute, 'lost', request);
  return dispute;
}

function close(state: SandboxState, dispute: Dispute, status: 'won' | 'lost', request: RequestInfo) {
  const previous = { status: dispute.status };
  dispute.status = status;
  state.emit('charge.dispute.closed', dispute, request, previous);
}

function closed(dispute: Dispute) {
  return new StripeError({
    status: 400,
    type: 'invalid_request_error',
    message: `This dispute is already closed (${dispute.status}).`,
  });
}

// Stripe's previous_attributes hold only what changed.
function changedOnly(previous: Record<string, unknown>, now: Dispute): Record<string, unknown> {
  const current = now as unknown as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(previous).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(current[key])),
  );
}

export function listDisputes(
  state: SandboxState,
  p: ParamsReader,
): { object: 'list'; data: Dispute[]; has_more: boolean; url: string } {
  const limit = p.integer('limit') ?? 10;
  if (limit < 1 || limit > 100)
    throw invalidParam('limit', 'This value must be between 1 and 100.', 'parameter_invalid_integer');
  const charge = p.string('charge');
  const paymentIntent = p.string('payment_intent');
  const after = p.string('starting_after');
  let disputes = [...state.disputes.values()]
    .reverse()
    .filter((d) => (!charge || d.charge === charge) && (!paymentIntent || d.payment_intent === paymentIntent));
  if (after) {
    const i = disputes.findIndex((d) => d.id === after);
    if (i === -1) throw noSuchResource('dispute', after, 'starting_after');
    disputes = disputes.slice(i + 1);
  }
  return { object: 'list', data: disputes.slice(0, limit), has_more: disputes.length > limit, url: '/v1/disputes' };
}
