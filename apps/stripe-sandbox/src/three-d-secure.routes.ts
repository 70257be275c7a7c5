import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxState, ThreeDSecureAttempt } from './sandbox-state';
import type { PaymentIntent } from './stripe-objects';
import { answerThreeDSecure } from './three-d-secure.service';
import { challengePage, messagePage } from './three-d-secure.view';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; base-uri 'none'";

/** The page behind `next_action.redirect_to_url.url`, where the customer "talks to the bank". */
export function threeDSecureRoutes(
  app: FastifyInstance,
  { state, merchant }: { state: SandboxState; merchant: string },
): void {
  app.get<{ Params: { token: string } }>('/test-bank/3ds/:token', (req, reply) => {
    const attempt = state.threeDSecure.get(req.params.token);
    const pi = attempt && state.paymentIntents.get(attempt.paymentIntentId);
    if (!attempt || !pi)
      return html(reply, 404, messagePage('Link not valid', 'This authentication link is not valid.'));
    const pm = state.paymentMethods.get(attempt.paymentMethodId);
    if (attempt.settled || pi.status !== 'requires_action' || !pm) return settledPage(reply, attempt, pi);
    return html(
      reply,
      200,
      challengePage({ merchant, amount: pi.amount, currency: pi.currency, brand: pm.card.brand, last4: pm.card.last4 }),
    );
  });

  app.post<{ Params: { token: string } }>('/test-bank/3ds/:token', (req, reply) => {
    const attempt = state.threeDSecure.get(req.params.token);
    const pi = attempt && state.paymentIntents.get(attempt.paymentIntentId);
    if (!attempt || !pi)
      return html(reply, 404, messagePage('Link not valid', 'This authentication link is not valid.'));
    const decision = new URLSearchParams(typeof req.body === 'string' ? req.body : '').get('decision');
    if (decision !== 'approve' && decision !== 'fail') {
      return html(reply, 400, messagePage('Choose an answer', 'Go back and choose Approve or Fail.'));
    }
    // The bank's answer is not an API request: Stripe's events then carry `request.id: null`.
    const result = answerThreeDSecure(state, attempt, decision === 'approve', { id: null, idempotencyKey: null });
    if (!result) return settledPage(reply, attempt, pi);
    if (attempt.returnUrl)
      return reply
        .code(303)
        .header('location', returnTo(attempt.returnUrl, pi, result))
        .send();
    return result === 'succeeded'
      ? html(reply, 200, messagePage('Payment approved', 'The bank approved the payment. You can close this window.'))
      : html(
          reply,
          200,
          messagePage('Payment not approved', 'The bank did not approve the payment. You can close this window.'),
        );
  });
}

/** Stripe's return: the shop's URL plus which PaymentIntent it was and how the redirect ended. */
export function returnTo(returnUrl: string, pi: PaymentIntent, status: 'succeeded' | 'failed'): string {
  const url = new URL(returnUrl);
  url.searchParams.set('payment_intent', pi.id);
  url.searchParams.set('payment_intent_client_secret', pi.client_secret);
  url.searchParams.set('redirect_status', status);
  return url.toString();
}

// A second tab, the back button or a cancelled PaymentIntent: nothing left to answer.
function settledPage(reply: FastifyReply, attempt: ThreeDSecureAttempt, pi: PaymentIntent) {
  const link = attempt.returnUrl
    ? {
        href: returnTo(attempt.returnUrl, pi, pi.status === 'succeeded' ? 'succeeded' : 'failed'),
        label: 'Return to the shop',
      }
    : undefined;
  return html(reply, 200, messagePage('Nothing to approve', 'This payment no longer waits for the bank.', link));
}

function html(reply: FastifyReply, status: number, body: string) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', CSP)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send(body);
}
