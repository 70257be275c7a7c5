/**
 * A Stripe error that no retry can cure: the request itself is wrong, or names something Stripe
 * does not have (`resource_missing`, 404), as when the sandbox forgot an intent or an intent was
 * made with other keys. Network failures, 5xx, rate limits (429) and bad keys (401, fixable by
 * the operator) are not: those are retried.
 */
export function isPermanentStripeError(err: unknown): boolean {
  const e = err as { type?: unknown; statusCode?: unknown; code?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  return (
    e.type === 'StripeInvalidRequestError' &&
    (e.statusCode === 400 || e.statusCode === 404 || e.code === 'resource_missing')
  );
}

/** "resource_missing: No such payment_intent: 'pi_…'", for the record a person reads. */
export function describeStripeError(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return (typeof e?.code === 'string' ? `${e.code}: ${message}` : message).slice(0, 500);
}
