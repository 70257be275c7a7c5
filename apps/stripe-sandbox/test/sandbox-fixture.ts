import Stripe from 'stripe';
import { createStripeSandbox, sandboxKeys, type StripeSandbox } from '../src/stripe-sandbox';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver';

export interface Fixture {
  sandbox: StripeSandbox;
  stripe: Stripe;
  receiver: WebhookReceiver;
  close(): Promise<void>;
}

/** A started sandbox with fast webhook retries, the real SDK pointed at it, and a receiver. */
export async function startFixture(): Promise<Fixture> {
  const receiver = await startWebhookReceiver();
  const sandbox = createStripeSandbox({
    ...sandboxKeys(),
    webhookUrl: receiver.url,
    webhookRetry: { initialDelayMs: 20, maxDelayMs: 200, maxAttempts: 5, timeoutMs: 2_000 },
  });
  await sandbox.start();
  const stripe = new Stripe(sandbox.secretKey, { ...sandbox.stripeClientOptions(), maxNetworkRetries: 0 });
  return {
    sandbox,
    stripe,
    receiver,
    async close() {
      await sandbox.stop();
      await receiver.close();
    },
  };
}

/** A PaymentIntent as checkout creates it (AUD, automatic payment methods, booking metadata). */
export function createBookingPayment(stripe: Stripe, amount = 7_500, idempotencyKey?: string) {
  return stripe.paymentIntents.create(
    {
      amount,
      currency: 'aud',
      automatic_payment_methods: { enabled: true },
      metadata: { bookingId: 'b_1', orderId: 'o_1' },
      description: 'Photos with Santa',
      receipt_email: 'demo@kringle.test',
    },
    idempotencyKey ? { idempotencyKey } : undefined,
  );
}
