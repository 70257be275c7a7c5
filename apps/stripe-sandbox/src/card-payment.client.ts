/**
 * What the web app's sandbox card form does, for tests of the sandbox and of the API: the
 * browser-side confirm (API.md, "Payments") and the customer's answer on the 3-D Secure page.
 */

export interface CardInput {
  number: string;
  expMonth?: string | number;
  expYear?: string | number;
  cvc?: string;
}

export interface ConfirmCardPaymentInput {
  sandboxUrl: string;
  publishableKey: string;
  clientSecret: string;
  card: CardInput;
  returnUrl?: string;
}

export interface SandboxResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a Stripe JSON body, read freely by tests
  body: any;
}

export const TEST_CARDS = {
  success: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  threeDSecure: '4000 0025 0000 3155',
} as const;

export async function confirmCardPayment(input: ConfirmCardPaymentInput): Promise<SandboxResponse> {
  const id = input.clientSecret.split('_secret_')[0];
  const body = new URLSearchParams({
    client_secret: input.clientSecret,
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': input.card.number,
    'payment_method_data[card][exp_month]': String(input.card.expMonth ?? 12),
    'payment_method_data[card][exp_year]': String(input.card.expYear ?? new Date().getUTCFullYear() + 2),
    'payment_method_data[card][cvc]': input.card.cvc ?? '123',
  });
  if (input.returnUrl) body.set('return_url', input.returnUrl);
  const res = await fetch(`${input.sandboxUrl}/v1/payment_intents/${id}/confirm`, {
    method: 'POST',
    headers: { authorization: `Bearer ${input.publishableKey}`, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  return { status: res.status, body: await res.json() };
}

/**
 * Opens the 3-D Secure page and presses Approve or Fail, as a browser would (the form posts to the
 * page itself). Returns where the bank sends the customer next (the return_url with Stripe's
 * query parameters), or null when the PaymentIntent had no return_url.
 */
export async function answerThreeDSecure(redirectUrl: string, decision: 'approve' | 'fail'): Promise<string | null> {
  const page = await fetch(redirectUrl);
  const html = await page.text();
  if (page.status !== 200 || !html.includes(`value="${decision}"`))
    throw new Error(`No ${decision} button on ${redirectUrl}`);
  const res = await fetch(redirectUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ decision }),
    redirect: 'manual',
  });
  await res.arrayBuffer();
  if (res.status === 303) return res.headers.get('location');
  if (res.status === 200) return null;
  throw new Error(`3-D Secure answer failed with HTTP ${res.status}`);
}
