import { StripeError } from './stripe-errors';

export interface StoredResponse {
  endpoint: string;
  fingerprint: string;
  status: number;
  body: unknown;
  requestId: string;
  storedAt: number;
}

const TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Stripe's idempotency layer: per API key, the first response to a key is kept for 24 hours and
 * replayed for the same endpoint and parameters; anything else with that key is an error.
 */
export class IdempotencyStore {
  private readonly stored = new Map<string, StoredResponse>();

  /** The stored response to replay, or null when the key is new. Throws on a mismatched reuse. */
  lookup(apiKey: string, key: string, endpoint: string, fingerprint: string): StoredResponse | null {
    this.prune();
    const entry = this.stored.get(scope(apiKey, key));
    if (!entry) return null;
    if (entry.endpoint !== endpoint) {
      throw idempotencyError(
        `Keys for idempotent requests can only be used for the same endpoint they were first used for ` +
          `('${entry.endpoint}' vs '${endpoint}'). Try using a key other than ` +
          `'${key}' if you meant to execute a different request.`,
      );
    }
    if (entry.fingerprint !== fingerprint) {
      throw idempotencyError(
        `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using ` +
          `a key other than '${key}' if you meant to execute a different request.`,
      );
    }
    return entry;
  }

  save(apiKey: string, key: string, response: Omit<StoredResponse, 'storedAt'>): void {
    this.stored.set(scope(apiKey, key), { ...response, storedAt: Date.now() });
  }

  /** Every live entry, for the state file. */
  snapshot(): [string, StoredResponse][] {
    this.prune();
    return [...this.stored];
  }

  restore(entries: [string, StoredResponse][]): void {
    for (const [k, v] of entries) this.stored.set(k, v);
    this.prune();
  }

  private prune(): void {
    const cutoff = Date.now() - TTL_MS;
    // Insertion order is age order, so the scan stops at the first live entry.
    for (const [k, v] of this.stored) {
      if (v.storedAt >= cutoff) break;
      this.stored.delete(k);
    }
  }
}

function scope(apiKey: string, key: string): string {
  return `${apiKey}\n${key}`;
}

function idempotencyError(message: string): StripeError {
  return new StripeError({ status: 400, type: 'idempotency_error', message, saveForIdempotency: false });
}
