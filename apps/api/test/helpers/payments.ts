import { createStripeSandbox, sandboxKeys, type StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import type { FastifyInstance } from 'fastify';

/** The local Stripe sandbox with quick webhook retries, and the env that points the API's SDK at it. */
export async function startSandbox(): Promise<{ sandbox: StripeSandbox; env: Record<string, string> }> {
  const sandbox = createStripeSandbox({ ...sandboxKeys(), webhookRetry: { initialDelayMs: 50, maxAttempts: 5 } });
  const url = await sandbox.start();
  return {
    sandbox,
    env: {
      STRIPE_SECRET_KEY: sandbox.secretKey,
      STRIPE_PUBLISHABLE_KEY: sandbox.publishableKey,
      STRIPE_WEBHOOK_SECRET: sandbox.webhookSecret,
      STRIPE_API_URL: url,
    },
  };
}

/** Webhooks need a real listening server: the sandbox POSTs to it like Stripe would. */
export async function listenForWebhooks(app: FastifyInstance, sandbox: StripeSandbox): Promise<void> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  sandbox.setWebhookUrl(`${address}/api/v1/webhooks/stripe`);
}

/** The browser's confirm call, exactly as API.md describes it. */
export async function payWithCard(sandbox: StripeSandbox, clientSecret: string, card: string) {
  const intentId = clientSecret.split('_secret_')[0]!;
  const form = new URLSearchParams({
    client_secret: clientSecret,
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': card.replace(/\s/g, ''),
    'payment_method_data[card][exp_month]': '12',
    'payment_method_data[card][exp_year]': String(new Date().getFullYear() + 2),
    'payment_method_data[card][cvc]': '123',
    return_url: 'http://localhost:3000/success',
  });
  const res = await fetch(`${sandbox.url}/v1/payment_intents/${intentId}/confirm`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.publishableKey}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  return (await res.json()) as { status: string; last_payment_error?: { code: string } };
}

export const CARDS = {
  success: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  threeDSecure: '4000 0025 0000 3155',
  /** Paid, then disputed as fraudulent by the cardholder (charge.dispute.created). */
  dispute: '4000 0000 0000 0259',
};
