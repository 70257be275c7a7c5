import { createHmac } from 'node:crypto';

/**
 * Stripe's `Stripe-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.payload">`
 * keyed with the endpoint's whole `whsec_…` secret (Stripe does not decode it).
 */
export function signWebhookPayload(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}
