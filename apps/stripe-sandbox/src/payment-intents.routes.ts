import type { FastifyInstance } from 'fastify';
import { ParamsReader } from './params-reader';
import type { SandboxState } from './sandbox-state';
import type { PaymentIntent } from './stripe-objects';
import { invalidParam, StripeError } from './stripe-errors';
import { stripeRoute, type RouteDeps, type StripeCall } from './stripe-route';
import {
  cancelPaymentIntent,
  checkClientSecret,
  createPaymentIntent,
  CREATE_FIELDS,
  getPaymentIntent,
  publicView,
  updatePaymentIntent,
  UPDATE_FIELDS,
} from './payment-intents.service';
import { CONFIRM_FIELDS, confirmPaymentIntent, type ConfirmResult } from './confirm.service';

export interface PaymentIntentRoutesOptions {
  deps: RouteDeps;
  state: SandboxState;
  publicUrl: () => string;
}

export function paymentIntentsRoutes(
  app: FastifyInstance,
  { deps, state, publicUrl }: PaymentIntentRoutesOptions,
): void {
  const id = (call: StripeCall) => getPaymentIntent(state, call.pathParams.id!);
  const render = (pi: PaymentIntent, expand: string[], call: StripeCall) =>
    renderPaymentIntent(state, pi, expand, call.keyKind);

  app.post(
    '/v1/payment_intents',
    stripeRoute(deps, {}, (call) => {
      const p = new ParamsReader(call.params, CREATE_FIELDS);
      const expand = expansions(p);
      const confirm = p.boolean('confirm') ?? false;
      if (!confirm && (p.has('payment_method') || p.has('return_url'))) {
        throw invalidParam(
          'confirm',
          'The sandbox takes payment_method and return_url on create only with confirm=true.',
        );
      }
      const pi = createPaymentIntent(state, p, call.request);
      if (confirm) secretConfirmOutcome(confirmWithCardErrors(state, pi, p, call, publicUrl()), state, expand, call);
      return render(pi, expand, call);
    }),
  );

  app.get(
    '/v1/payment_intents/:id',
    stripeRoute(deps, { publishable: true }, (call) => {
      const p = new ParamsReader(call.params, ['client_secret']);
      const expand = expansions(p);
      const pi = id(call);
      if (call.keyKind === 'publishable') checkClientSecret(pi, p.string('client_secret'));
      return render(pi, expand, call);
    }),
  );

  app.post(
    '/v1/payment_intents/:id',
    stripeRoute(deps, {}, (call) => {
      const p = new ParamsReader(call.params, UPDATE_FIELDS);
      const expand = expansions(p);
      return render(updatePaymentIntent(state, id(call), p), expand, call);
    }),
  );

  app.post(
    '/v1/payment_intents/:id/cancel',
    stripeRoute(deps, {}, (call) => {
      const p = new ParamsReader(call.params, ['cancellation_reason']);
      const expand = expansions(p);
      return render(cancelPaymentIntent(state, id(call), p, call.request), expand, call);
    }),
  );

  app.post(
    '/v1/payment_intents/:id/confirm',
    stripeRoute(deps, { publishable: true }, (call) => {
      const p = new ParamsReader(call.params, CONFIRM_FIELDS);
      const expand = expansions(p);
      const pi = id(call);
      if (call.keyKind === 'publishable') {
        checkClientSecret(pi, p.string('client_secret'));
        // API.md: the browser's confirm answers the PaymentIntent, declined or not (see apps/stripe-sandbox/README.md).
        return render(confirmWithCardErrors(state, pi, p, call, publicUrl()).pi, expand, call);
      }
      secretConfirmOutcome(confirmWithCardErrors(state, pi, p, call, publicUrl()), state, expand, call);
      return render(pi, expand, call);
    }),
  );
}

/** A card refused before charging (bad number, date, CVC) is a 402 carrying the unchanged PaymentIntent. */
function confirmWithCardErrors(
  state: SandboxState,
  pi: PaymentIntent,
  p: ParamsReader,
  call: StripeCall,
  publicUrl: string,
): ConfirmResult {
  try {
    return confirmPaymentIntent(state, pi, p, call.request, publicUrl);
  } catch (err) {
    if (err instanceof StripeError && err.type === 'card_error') {
      throw new StripeError({
        status: err.status,
        type: err.type,
        code: err.code,
        param: err.param,
        message: err.message,
        extra: { payment_intent: renderPaymentIntent(state, pi, [], call.keyKind) },
      });
    }
    throw err;
  }
}

/** With a secret key a declined confirm is Stripe's 402 card_error, so the SDK throws StripeCardError. */
function secretConfirmOutcome(result: ConfirmResult, state: SandboxState, expand: string[], call: StripeCall): void {
  const failure = result.failure;
  if (!failure) return;
  const { type, code, decline_code, message, payment_method } = failure;
  throw new StripeError({
    status: 402,
    type,
    code,
    declineCode: decline_code,
    message,
    extra: {
      charge: failure.charge,
      payment_intent: renderPaymentIntent(state, result.pi, expand, call.keyKind),
      payment_method,
    },
  });
}

const EXPANDABLE = ['latest_charge', 'payment_method'];

function expansions(p: ParamsReader): string[] {
  const expand = p.stringList('expand');
  const bad = expand.find((e) => !EXPANDABLE.includes(e));
  if (bad)
    throw invalidParam(
      'expand',
      `This property cannot be expanded (${bad}). The sandbox expands: ${EXPANDABLE.join(', ')}.`,
    );
  return expand;
}

export function renderPaymentIntent(
  state: SandboxState,
  pi: PaymentIntent,
  expand: string[],
  keyKind: 'secret' | 'publishable',
): unknown {
  const body: Record<string, unknown> = keyKind === 'publishable' ? publicView(pi) : { ...pi };
  if (expand.includes('latest_charge') && pi.latest_charge)
    body.latest_charge = state.charges.get(pi.latest_charge) ?? null;
  if (expand.includes('payment_method') && pi.payment_method)
    body.payment_method = state.paymentMethods.get(pi.payment_method) ?? null;
  return structuredClone(body);
}
