import type { Metadata } from './params-reader';

/** The JSON shapes the sandbox answers, as Stripe names them (a subset of each object's fields). */

export type PaymentIntentStatus =
  'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'succeeded' | 'canceled';

export interface PaymentError {
  type: 'card_error' | 'invalid_request_error';
  code: string;
  decline_code?: string;
  message: string;
  doc_url: string;
  charge?: string;
  payment_method?: PaymentMethod;
}

export interface NextAction {
  type: 'redirect_to_url';
  redirect_to_url: { url: string; return_url: string | null };
}

export interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  application: null;
  application_fee_amount: null;
  automatic_payment_methods: { enabled: boolean; allow_redirects?: 'always' | 'never' } | null;
  canceled_at: number | null;
  cancellation_reason: string | null;
  capture_method: 'automatic' | 'automatic_async';
  client_secret: string;
  confirmation_method: 'automatic';
  created: number;
  currency: string;
  customer: null;
  description: string | null;
  last_payment_error: PaymentError | null;
  latest_charge: string | null;
  livemode: false;
  metadata: Metadata;
  next_action: NextAction | null;
  on_behalf_of: null;
  payment_method: string | null;
  payment_method_options: { card: { request_three_d_secure: 'automatic' } };
  payment_method_types: string[];
  processing: null;
  receipt_email: string | null;
  review: null;
  setup_future_usage: null;
  shipping: null;
  statement_descriptor: string | null;
  statement_descriptor_suffix: string | null;
  status: PaymentIntentStatus;
  transfer_data: null;
  transfer_group: null;
}

export interface CardDetails {
  brand: string;
  country: string;
  exp_month: number;
  exp_year: number;
  funding: 'credit' | 'debit';
  last4: string;
  fingerprint: string;
}

export interface PaymentMethod {
  id: string;
  object: 'payment_method';
  billing_details: { address: null; email: string | null; name: string | null; phone: null };
  card: CardDetails;
  created: number;
  customer: null;
  livemode: false;
  metadata: Metadata;
  type: 'card';
}

export interface Charge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  balance_transaction: string | null;
  billing_details: PaymentMethod['billing_details'];
  captured: boolean;
  created: number;
  currency: string;
  customer: null;
  description: string | null;
  failure_code: string | null;
  failure_message: string | null;
  livemode: false;
  metadata: Metadata;
  outcome: {
    network_status: 'approved_by_network' | 'declined_by_network';
    reason: string | null;
    risk_level: 'normal';
    seller_message: string;
    type: 'authorized' | 'issuer_declined';
  };
  paid: boolean;
  payment_intent: string;
  payment_method: string;
  payment_method_details: {
    type: 'card';
    card: Omit<CardDetails, 'fingerprint'> & { three_d_secure: { result: 'authenticated' } | null };
  };
  receipt_email: string | null;
  receipt_url: string;
  refunded: boolean;
  /** True once a dispute was opened on the charge (Stripe's card 4000 0000 0000 0259). */
  disputed: boolean;
  status: 'succeeded' | 'failed';
}

export interface Refund {
  id: string;
  object: 'refund';
  amount: number;
  balance_transaction: string;
  charge: string;
  created: number;
  currency: string;
  metadata: Metadata;
  payment_intent: string;
  reason: 'duplicate' | 'fraudulent' | 'requested_by_customer' | null;
  receipt_number: null;
  source_transfer_reversal: null;
  status: 'succeeded';
  transfer_reversal: null;
}

/** Stripe's evidence fields that take text or a File id; `enhanced_evidence` and `appeal` are not modelled. */
export const DISPUTE_EVIDENCE_FIELDS = [
  'access_activity_log',
  'billing_address',
  'cancellation_policy',
  'cancellation_policy_disclosure',
  'cancellation_rebuttal',
  'customer_communication',
  'customer_email_address',
  'customer_name',
  'customer_purchase_ip',
  'customer_signature',
  'duplicate_charge_documentation',
  'duplicate_charge_explanation',
  'duplicate_charge_id',
  'product_description',
  'receipt',
  'refund_policy',
  'refund_policy_disclosure',
  'refund_refusal_explanation',
  'service_date',
  'service_documentation',
  'shipping_address',
  'shipping_carrier',
  'shipping_date',
  'shipping_documentation',
  'shipping_tracking_number',
  'uncategorized_file',
  'uncategorized_text',
] as const;
export type DisputeEvidenceField = (typeof DISPUTE_EVIDENCE_FIELDS)[number];

export interface Dispute {
  id: string;
  object: 'dispute';
  amount: number;
  balance_transactions: never[];
  charge: string;
  created: number;
  currency: string;
  enhanced_eligibility_types: never[];
  evidence: Record<DisputeEvidenceField, string | null> & { enhanced_evidence: Record<string, never> };
  evidence_details: {
    due_by: number;
    enhanced_eligibility: Record<string, never>;
    has_evidence: boolean;
    past_due: boolean;
    submission_count: number;
    submission_method: 'manual' | 'not_submitted';
  };
  intended_submission_method: null;
  is_charge_refundable: boolean;
  livemode: false;
  metadata: Metadata;
  network_reason_code: string;
  payment_intent: string;
  payment_method_details: {
    type: 'card';
    card: { brand: string; case_type: 'chargeback'; network: string; network_reason_code: string };
  };
  reason: 'fraudulent';
  status: 'needs_response' | 'under_review' | 'won' | 'lost';
}

/** An uploaded file (`POST /v1/files`), as Stripe.File has it. */
export interface StripeFile {
  id: string;
  object: 'file';
  created: number;
  expires_at: number | null;
  filename: string | null;
  links: { object: 'list'; data: never[]; has_more: false; url: string };
  purpose: 'dispute_evidence';
  size: number;
  title: null;
  type: string;
  url: string;
}

/** Evidence fields that take a File id of an upload with purpose dispute_evidence, not text. */
export const DISPUTE_FILE_FIELDS: readonly DisputeEvidenceField[] = [
  'cancellation_policy',
  'customer_communication',
  'customer_signature',
  'duplicate_charge_documentation',
  'receipt',
  'refund_policy',
  'service_documentation',
  'shipping_documentation',
  'uncategorized_file',
];

export type StripeObject = PaymentIntent | Charge | Refund | Dispute;

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: StripeObject; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}
