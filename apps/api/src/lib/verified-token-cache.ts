/**
 * Remembers tokens whose signature this process has already verified, until the token's own
 * `exp`, so a customer's repeated calls cost a map lookup instead of a signature check (ES256
 * verification is the largest CPU cost of a cached availability read). The key is the whole
 * token, signature included: only the exact bytes that verified can hit. Nothing else about a
 * token changes while it lives, so the answer is the same as verifying again.
 */
export class VerifiedTokenCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAtMs: number }>();

  constructor(private readonly maxEntries = 20_000) {}

  /** The remembered answer for a token that has not expired, without a promise (hooks' fast path). */
  peek(token: string, nowMs: number): T | undefined {
    const hit = this.entries.get(token);
    if (hit && hit.expiresAtMs > nowMs) return hit.value;
    if (hit) this.entries.delete(token);
    return undefined;
  }

  async verify(token: string, nowMs: number, verifyToken: (token: string) => Promise<T | null>): Promise<T | null> {
    const known = this.peek(token, nowMs);
    if (known !== undefined) return known;
    const value = await verifyToken(token);
    const expiresAtMs = value === null ? null : expiryOf(token);
    if (value !== null && expiresAtMs !== null && expiresAtMs > nowMs) {
      // Oldest first out (Map keeps insertion order); the cap bounds memory under a flood of tokens.
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(token, { value, expiresAtMs });
    }
    return value;
  }
}

/** The `exp` of a token that has just verified (so its payload is well-formed JSON), in ms. */
function expiryOf(token: string): number | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : null;
  } catch {
    return null;
  }
}
