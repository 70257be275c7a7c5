import { newId, unixNow } from './ids';
import { nested, type ParamsReader } from './params-reader';
import type { RequestInfo, SandboxState } from './sandbox-state';
import type { PaymentError, PaymentIntent, PaymentMethod } from './stripe-objects';
import { invalidParam, missingParam, noSuchResource, unexpectedState } from './stripe-errors';
import { chargeAndSettle } from './charges.service';
import { TEST_PAYMENT_METHODS, validateCard } from './test-cards';
import { cancelThreeDSecure, startThreeDSecure } from './three-d-secure.service';

export const CONFIRM_FIELDS = [
  'client_secret',
  'payment_method',
  'payment_method_data',
  'return_url',
  'use_stripe_sdk',
];
const CONFIRMABLE = ['requires_payment_method', 'requires_confirmation', 'requires_action'];

export interface ConfirmResult {
  pi: PaymentIntent;
  /** Set when the card was declined: the PaymentIntent is back in requires_payment_method. */
  failure: PaymentError | null;
}

/**
 * Confirms with card data (the browser's call) or a PaymentMethod id (server side, including
 * Stripe's `pm_card_*` test shorthands) and charges the card, or starts 3-D Secure.
 */
export function confirmPaymentIntent(
  state: SandboxState,
  pi: PaymentIntent,
  p: ParamsReader,
  request: RequestInfo,
  publicUrl: string,
): ConfirmResult {
  if (!CONFIRMABLE.includes(pi.status)) {
    throw unexpectedState(
      pi.status === 'succeeded'
        ? 'You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.'
        : `You cannot confirm this PaymentIntent because it has a status of ` +
            `${pi.status}. Only a PaymentIntent with one of the following statuses may be confirmed: ` +
            `requires_confirmation, requires_payment_method, requires_action.`,
    );
  }
  const returnUrl = readReturnUrl(p);
  const pm = resolvePaymentMethod(state, pi, p);
  // A new confirmation replaces a pending 3-D Secure challenge, whatever its outcome.
  cancelThreeDSecure(state, pi.id);
  const outcome = state.cardOutcomes.get(pm.id) ?? { kind: 'success' };
  if (outcome.kind === 'three_d_secure') {
    startThreeDSecure(state, pi, pm, returnUrl, publicUrl);
    state.emit('payment_intent.requires_action', pi, request);
    return { pi, failure: null };
  }
  return { pi, failure: chargeAndSettle(state, pi, pm, outcome, request, false) };
}

function resolvePaymentMethod(state: SandboxState, pi: PaymentIntent, p: ParamsReader): PaymentMethod {
  const data = p.object('payment_method_data');
  const id = p.string('payment_method');
  if (data && id)
    throw invalidParam(
      'payment_method',
      'You may only specify one of these parameters: payment_method, payment_method_data.',
    );
  if (data) {
    const d = nested(data, ['type', 'card', 'billing_details']);
    const type = d.string('payment_method_data[type]', { required: true });
    if (type !== 'card')
      throw invalidParam('payment_method_data[type]', 'The sandbox supports only the payment method type card.');
    const cardSource = d.object('payment_method_data[card]');
    if (!cardSource) throw missingParam('payment_method_data[card]');
    const c = nested(cardSource, ['number', 'exp_month', 'exp_year', 'cvc']);
    const billing = d.object('payment_method_data[billing_details]');
    const b = billing ? nested(billing, ['name', 'email']) : null;
    return addPaymentMethod(state, {
      number: c.string('payment_method_data[card][number]', { required: true }),
      expMonth: c.string('payment_method_data[card][exp_month]', { required: true }),
      expYear: c.string('payment_method_data[card][exp_year]', { required: true }),
      cvc: c.string('payment_method_data[card][cvc]'),
      name: b?.string('payment_method_data[billing_details][name]', { max: 200 }) ?? null,
      email: b?.string('payment_method_data[billing_details][email]', { max: 200 }) ?? null,
    });
  }
  if (id) {
    const testNumber = TEST_PAYMENT_METHODS[id];
    if (testNumber) {
      const year = String(new Date().getUTCFullYear() + 3);
      return addPaymentMethod(state, { number: testNumber, expMonth: '12', expYear: year, name: null, email: null });
    }
    const existing = state.paymentMethods.get(id);
    if (!existing) throw noSuchResource('PaymentMethod', id, 'payment_method');
    return existing;
  }
  const attached = pi.payment_method ? state.paymentMethods.get(pi.payment_method) : undefined;
  if (!attached) {
    throw unexpectedState(
      "You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent " +
        'with a payment method, pass payment_method or payment_method_data.',
    );
  }
  return attached;
}

interface NewCard {
  number: string;
  expMonth: string;
  expYear: string;
  cvc?: string;
  name: string | null;
  email: string | null;
}

function addPaymentMethod(state: SandboxState, card: NewCard): PaymentMethod {
  const valid = validateCard(card);
  const pm: PaymentMethod = {
    id: newId('pm'),
    object: 'payment_method',
    billing_details: { address: null, email: card.email, name: card.name, phone: null },
    card: valid.details,
    created: unixNow(),
    customer: null,
    livemode: false,
    metadata: {},
    type: 'card',
  };
  state.paymentMethods.set(pm.id, pm);
  state.cardOutcomes.set(pm.id, valid.outcome);
  return pm;
}

function readReturnUrl(p: ParamsReader): string | null {
  const raw = p.string('return_url', { max: 2048 });
  if (raw === undefined || raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidParam('return_url', 'Not a valid URL', 'url_invalid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidParam('return_url', 'Not a valid URL', 'url_invalid');
  return url.toString();
}
