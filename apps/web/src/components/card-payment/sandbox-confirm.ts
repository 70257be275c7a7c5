import type { CardFields } from './card-validation';
import { digitsOnly, parseExpiry } from './card-validation';

/** The parts of a Stripe PaymentIntent the browser reads after confirming. */
export interface ConfirmedIntent {
  id: string;
  status: string;
  last_payment_error?: { message?: string; code?: string; decline_code?: string } | null;
  next_action?: { type: string; redirect_to_url?: { url: string } } | null;
}

export type ConfirmOutcome =
  | { kind: 'succeeded' }
  | { kind: 'processing' }
  | { kind: 'redirect'; url: string }
  | { kind: 'declined'; message: string }
  | { kind: 'error'; message: string };

/** Stripe's decline codes in words a parent understands. */
const DECLINE_WORDS: Record<string, string> = {
  insufficient_funds: 'Your card was declined because it does not have enough funds. Please try another card.',
  generic_decline: 'Your card was declined by your bank. Please try another card, or call your bank.',
  card_declined: 'Your card was declined by your bank. Please try another card, or call your bank.',
  expired_card: 'Your card has expired. Please use another card.',
  incorrect_cvc: 'The security code does not match this card. Please check it and try again.',
  payment_intent_authentication_failure:
    'Your bank could not confirm it was you, so nothing was charged. Please try again or use another card.',
};

export function declineMessage(
  error: { message?: string; code?: string; decline_code?: string } | null | undefined,
): string {
  return (
    DECLINE_WORDS[error?.decline_code ?? ''] ??
    DECLINE_WORDS[error?.code ?? ''] ??
    error?.message ??
    'Your payment did not go through. Please try another card.'
  );
}

/** What a PaymentIntent's status means for the customer. */
export function outcomeOf(intent: ConfirmedIntent): ConfirmOutcome {
  if (intent.status === 'succeeded') return { kind: 'succeeded' };
  if (intent.status === 'processing') return { kind: 'processing' };
  const url = intent.next_action?.redirect_to_url?.url;
  if (intent.status === 'requires_action' && url) return { kind: 'redirect', url };
  if (intent.status === 'requires_payment_method')
    return { kind: 'declined', message: declineMessage(intent.last_payment_error) };
  return { kind: 'error', message: 'Your payment could not be completed. Please try again.' };
}

/**
 * The local sandbox's confirm, exactly Stripe's browser call (API.md "Payments"): form-encoded,
 * with the publishable key and the client_secret. The sandbox answers the PaymentIntent, or a
 * 402 card_error for card details it refuses before charging.
 */
export async function confirmWithSandbox(opts: {
  sandboxUrl: string;
  publishableKey: string;
  clientSecret: string;
  card: CardFields;
  returnUrl: string;
  fetchFn?: typeof fetch;
}): Promise<ConfirmOutcome> {
  const { sandboxUrl, publishableKey, clientSecret, card, returnUrl, fetchFn = fetch } = opts;
  const id = clientSecret.split('_secret_')[0];
  const expiry = parseExpiry(card.expiry);
  const body = new URLSearchParams({
    client_secret: clientSecret,
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': digitsOnly(card.number),
    'payment_method_data[card][exp_month]': String(expiry?.month ?? ''),
    'payment_method_data[card][exp_year]': String(expiry?.year ?? ''),
    'payment_method_data[card][cvc]': card.cvc.trim(),
    'payment_method_data[billing_details][name]': card.name.trim(),
    return_url: returnUrl,
  });
  let response: Response;
  try {
    response = await fetchFn(`${sandboxUrl.replace(/\/$/, '')}/v1/payment_intents/${id}/confirm`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${publishableKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    });
  } catch {
    return { kind: 'error', message: 'We could not reach the payment service. Check your connection and try again.' };
  }
  const json = (await response.json().catch(() => null)) as
    (ConfirmedIntent & { error?: { message?: string; code?: string; decline_code?: string; type?: string } }) | null;
  if (!response.ok || !json || json.error) {
    if (json?.error?.type === 'card_error') return { kind: 'declined', message: declineMessage(json.error) };
    return { kind: 'error', message: json?.error?.message ?? 'Your payment could not be completed. Please try again.' };
  }
  return outcomeOf(json);
}
