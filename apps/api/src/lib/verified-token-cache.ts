/**
 * Remembers tokens whose signature this process has already verified, until the token's own
 * `exp`, so a customer's repeated calls cost a map lookup instead of a signature check (ES256
 * verification is the largest CPU cost of a cached availability read). Only the exact bytes that
 * verified can hit: an entry keeps its whole token, signature included, and a hit compares it.
 * Nothing else about a token changes while it lives, so the answer is the same as verifying again.
 *
 * The map's key is the token's last 32 characters (the end of its signature), not the token:
 * hashing a fresh 900-character header per request was 5% of a cached read's CPU (decision 0035).
 * Two tokens sharing a key only replace each other (a miss, and a check again).
 */
const KEY_LENGTH = 32;
const keyOf = (token: string) => (token.length > KEY_LENGTH ? token.slice(-KEY_LENGTH) : token);

export class VerifiedTokenCache<T> {
  /** `sent`: the token as its header carries it, after `prefix` ("Bearer "), so a header can be matched as sent. */
  private readonly entries = new Map<string, { sent: string; value: T; expiresAtMs: number }>();

  constructor(
    private readonly maxEntries = 20_000,
    private readonly prefix = '',
  ) {}

  /** The remembered answer for a token that has not expired, without a promise (hooks' fast path). */
  peek(token: string, nowMs: number): T | undefined {
    const key = keyOf(token);
    const hit = this.entries.get(key);
    if (!hit || hit.sent.length !== this.prefix.length + token.length || !hit.sent.endsWith(token)) return undefined;
    return this.unexpired(key, hit, nowMs);
  }

  /**
   * The same for a whole header value (`prefix` and token), as the request carries it: one compare,
   * no token cut out of it (decision 0077). A header spelled otherwise ("bearer ", spaces) misses, as
   * does a token shorter than 32 characters (its key is not the header's end): peek decides those.
   */
  peekSent(sent: string, nowMs: number): T | undefined {
    const key = keyOf(sent);
    const hit = this.entries.get(key);
    if (!hit || hit.sent !== sent) return undefined;
    return this.unexpired(key, hit, nowMs);
  }

  private unexpired(key: string, hit: { value: T; expiresAtMs: number }, nowMs: number): T | undefined {
    if (hit.expiresAtMs > nowMs) return hit.value;
    this.entries.delete(key);
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
      this.entries.set(keyOf(token), { sent: this.prefix + token, value, expiresAtMs });
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
