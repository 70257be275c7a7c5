import { newId, randomToken, unixNow } from './ids';
import { mergeMetadata, type ParamsReader } from './params-reader';
import type { RequestInfo, SandboxState } from './sandbox-state';
import type { PaymentIntent, PaymentIntentStatus } from './stripe-objects';
import { invalidParam, noSuchResource, StripeError, unexpectedState } from './stripe-errors';
import { cancelThreeDSecure } from './three-d-secure.service';

export const CURRENCIES = ['aud', 'usd', 'nzd', 'eur', 'gbp', 'cad', 'sgd'] as const;
const MIN_AMOUNT = 50;
const MAX_AMOUNT = 99_999_999;
const AMOUNT_EDITABLE: PaymentIntentStatus[] = ['requires_payment_method', 'requires_confirmation', 'requires_action'];
const CANCELABLE: PaymentIntentStatus[] = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
];
export const CREATE_FIELDS = [
  'amount',
  'currency',
  'automatic_payment_methods',
  'payment_method_types',
  'metadata',
  'description',
  'receipt_email',
  'statement_descriptor',
  'statement_descriptor_suffix',
  'capture_method',
  'payment_method',
  'confirm',
  'return_url',
] as const;
export const UPDATE_FIELDS = [
  'amount',
  'currency',
  'metadata',
  'description',
  'receipt_email',
  'statement_descriptor',
  'statement_descriptor_suffix',
];

export function getPaymentIntent(state: SandboxState, id: string): PaymentIntent {
  const pi = state.paymentIntents.get(id);
  if (!pi) throw noSuchResource('payment_intent', id);
  return pi;
}

export function createPaymentIntent(state: SandboxState, p: ParamsReader, request: RequestInfo): PaymentIntent {
  const amount = readAmount(p, true);
  const currency = readCurrency(p, true);
  const automatic = p.object('automatic_payment_methods');
  const types = p.stringList('payment_method_types');
  if (automatic && types.length) {
    throw invalidParam(
      'automatic_payment_methods',
      'You may only specify one of these parameters: automatic_payment_methods, payment_method_types.',
    );
  }
  if (types.some((t) => t !== 'card'))
    throw invalidParam('payment_method_types', 'The sandbox supports only the payment method type card.');
  let automaticPaymentMethods: PaymentIntent['automatic_payment_methods'] = types.length ? null : { enabled: true };
  if (automatic) {
    const enabled = automatic.params.enabled;
    if (enabled !== 'true' && enabled !== 'false')
      throw invalidParam('automatic_payment_methods[enabled]', 'Invalid boolean');
    const allow = automatic.params.allow_redirects;
    automaticPaymentMethods = {
      enabled: enabled === 'true',
      ...(allow === 'always' || allow === 'never' ? { allow_redirects: allow } : {}),
    };
  }
  const id = newId('pi');
  const pi: PaymentIntent = {
    id,
    object: 'payment_intent',
    amount,
    amount_capturable: 0,
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: automaticPaymentMethods,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: p.oneOf('capture_method', ['automatic', 'automatic_async'] as const) ?? 'automatic_async',
    client_secret: `${id}_secret_${randomToken(25)}`,
    confirmation_method: 'automatic',
    created: unixNow(),
    currency,
    customer: null,
    description: p.string('description', { max: 1000 }) ?? null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: mergeMetadata({}, p.metadata() ?? {}),
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    processing: null,
    receipt_email: readEmail(p) ?? null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    statement_descriptor: p.string('statement_descriptor', { max: 22 }) ?? null,
    statement_descriptor_suffix: p.string('statement_descriptor_suffix', { max: 22 }) ?? null,
    status: 'requires_payment_method',
    transfer_data: null,
    transfer_group: null,
  };
  state.paymentIntents.set(id, pi);
  state.emit('payment_intent.created', pi, request);
  return pi;
}

/** Metadata and descriptions change in any status; the amount only before the payment happens. */
export function updatePaymentIntent(state: SandboxState, pi: PaymentIntent, p: ParamsReader): PaymentIntent {
  const amount = readAmount(p, false);
  const currency = readCurrency(p, false);
  for (const [field, changed] of [
    ['amount', amount],
    ['currency', currency],
  ] as const) {
    if (changed !== undefined && !AMOUNT_EDITABLE.includes(pi.status)) {
      throw unexpectedState(
        `This PaymentIntent's ` +
          `${field} could not be updated because it has a status of ` +
          `${pi.status}. You may only update the ` +
          `${field} of a PaymentIntent with one of the following statuses: ${AMOUNT_EDITABLE.join(', ')}.`,
      );
    }
  }
  const metadata = p.metadata();
  const description = p.string('description', { max: 1000 });
  const email = readEmail(p);
  const descriptor = p.string('statement_descriptor', { max: 22 });
  const suffix = p.string('statement_descriptor_suffix', { max: 22 });
  if ((amount !== undefined && amount !== pi.amount) || (currency !== undefined && currency !== pi.currency)) {
    // A new amount needs a new authentication: the pending 3-D Secure attempt is void.
    if (pi.status === 'requires_action') {
      cancelThreeDSecure(state, pi.id);
      pi.status = 'requires_payment_method';
      pi.next_action = null;
      pi.payment_method = null;
    }
    pi.amount = amount ?? pi.amount;
    pi.currency = currency ?? pi.currency;
  }
  if (metadata !== undefined) pi.metadata = mergeMetadata(pi.metadata, metadata);
  if (description !== undefined) pi.description = description || null;
  if (email !== undefined) pi.receipt_email = email || null;
  if (descriptor !== undefined) pi.statement_descriptor = descriptor || null;
  if (suffix !== undefined) pi.statement_descriptor_suffix = suffix || null;
  return pi;
}

export function cancelPaymentIntent(
  state: SandboxState,
  pi: PaymentIntent,
  p: ParamsReader,
  request: RequestInfo,
): PaymentIntent {
  const reason = p.oneOf('cancellation_reason', [
    'duplicate',
    'fraudulent',
    'requested_by_customer',
    'abandoned',
  ] as const);
  if (!CANCELABLE.includes(pi.status)) {
    throw unexpectedState(
      `You cannot cancel this PaymentIntent because it has a status of ` +
        `${pi.status}. Only a PaymentIntent with one of the following statuses may be canceled: ` +
        `requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
    );
  }
  cancelThreeDSecure(state, pi.id);
  pi.status = 'canceled';
  pi.canceled_at = unixNow();
  pi.cancellation_reason = reason ?? null;
  pi.next_action = null;
  state.emit('payment_intent.canceled', pi, request);
  return pi;
}

/** What a publishable key may see of a PaymentIntent: Stripe hides metadata from the browser. */
export function publicView(pi: PaymentIntent): Omit<PaymentIntent, 'metadata'> {
  const { metadata: _metadata, ...rest } = pi;
  return rest;
}

export function checkClientSecret(pi: PaymentIntent, clientSecret: string | undefined): void {
  if (clientSecret !== pi.client_secret) {
    throw new StripeError({
      status: 400,
      type: 'invalid_request_error',
      code: 'payment_intent_invalid_parameter',
      param: 'client_secret',
      message: 'The client_secret provided does not match the client_secret associated with the PaymentIntent.',
    });
  }
}

function readAmount(p: ParamsReader, required: true): number;
function readAmount(p: ParamsReader, required: false): number | undefined;
function readAmount(p: ParamsReader, required: boolean): number | undefined {
  const amount = p.integer('amount', { required });
  if (amount === undefined) return undefined;
  if (amount < MIN_AMOUNT) throw invalidParam('amount', 'Amount must be at least $0.50 aud', 'amount_too_small');
  if (amount > MAX_AMOUNT) throw invalidParam('amount', 'Amount must be no more than $999,999.99', 'amount_too_large');
  return amount;
}

function readCurrency(p: ParamsReader, required: true): string;
function readCurrency(p: ParamsReader, required: false): string | undefined;
function readCurrency(p: ParamsReader, required: boolean): string | undefined {
  const raw = p.string('currency', { required });
  if (raw === undefined) return undefined;
  const currency = raw.toLowerCase();
  if (!(CURRENCIES as readonly string[]).includes(currency)) {
    throw invalidParam('currency', `Invalid currency: ${raw}. The sandbox supports: ${CURRENCIES.join(', ')}.`);
  }
  return currency;
}

function readEmail(p: ParamsReader): string | undefined {
  const email = p.string('receipt_email', { max: 800 });
  if (email && !/^[^\s@]+@[^\s@]+$/.test(email))
    throw invalidParam('receipt_email', `Invalid email address: ${email}`, 'email_invalid');
  return email;
}
