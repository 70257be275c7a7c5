import { describe, expect, it } from 'vitest';
import { VerifiedTokenCache } from './verified-token-cache';

const token = (exp: number, sig = 'sig') => `h.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.${sig}`;

describe('VerifiedTokenCache', () => {
  it('verifies a token once and answers again from memory until its exp', async () => {
    const cache = new VerifiedTokenCache<string>();
    let calls = 0;
    const verify = async () => (calls++, 'claims');
    const t = token(100);
    expect(await cache.verify(t, 10_000, verify)).toBe('claims');
    expect(await cache.verify(t, 99_999, verify)).toBe('claims');
    expect(calls).toBe(1);
    // At exp the cached answer is gone and the real check decides (here: it now refuses).
    expect(await cache.verify(t, 100_000, async () => (calls++, null))).toBeNull();
    expect(calls).toBe(2);
  });

  it('never remembers a refusal, and only the exact token that verified hits', async () => {
    const cache = new VerifiedTokenCache<string>();
    let calls = 0;
    const refuse = async () => (calls++, null);
    expect(await cache.verify(token(100), 0, refuse)).toBeNull();
    expect(await cache.verify(token(100), 0, refuse)).toBeNull();
    await cache.verify(token(100, 'good'), 0, async () => 'claims');
    expect(await cache.verify(token(100, 'forged'), 0, refuse)).toBeNull();
    expect(calls).toBe(3);
  });

  it('never lets another token with the same signature end hit (its key), only the exact one', async () => {
    const cache = new VerifiedTokenCache<string>();
    const sig = 'S'.repeat(86);
    const good = `h.${Buffer.from(JSON.stringify({ exp: 100, sub: 'a' })).toString('base64url')}.${sig}`;
    const forged = `h.${Buffer.from(JSON.stringify({ exp: 100, sub: 'b' })).toString('base64url')}.${sig}`;
    expect(await cache.verify(good, 0, async () => 'claims of a')).toBe('claims of a');
    expect(cache.peek(forged, 0)).toBeUndefined();
    expect(await cache.verify(forged, 0, async () => null)).toBeNull();
    expect(cache.peek(good, 0)).toBe('claims of a');
  });

  it('keeps at most maxEntries tokens, dropping the oldest', async () => {
    const cache = new VerifiedTokenCache<string>(2);
    let calls = 0;
    const verify = async () => (calls++, 'claims');
    for (const sig of ['a', 'b', 'c']) await cache.verify(token(100, sig), 0, verify);
    await cache.verify(token(100, 'c'), 0, verify);
    expect(calls).toBe(3);
    await cache.verify(token(100, 'a'), 0, verify);
    expect(calls).toBe(4);
  });

  it('matches a whole header only when it is the prefix and a token that verified, byte for byte', async () => {
    const cache = new VerifiedTokenCache<string>(10, 'Bearer ');
    const sig = 'S'.repeat(86);
    const good = `h.${Buffer.from(JSON.stringify({ exp: 100, sub: 'a' })).toString('base64url')}.${sig}`;
    const forged = `h.${Buffer.from(JSON.stringify({ exp: 100, sub: 'b' })).toString('base64url')}.${sig}`;
    expect(await cache.verify(good, 0, async () => 'claims of a')).toBe('claims of a');
    expect(cache.peekSent(`Bearer ${good}`, 0)).toBe('claims of a');
    expect(cache.peek(good, 0)).toBe('claims of a');
    // Same key (the signature's end), other bytes: no hit, whichever way it is looked up.
    expect(cache.peekSent(`Bearer ${forged}`, 0)).toBeUndefined();
    expect(cache.peek(forged, 0)).toBeUndefined();
    // Another spelling of the scheme, or the token without it, is left to peek after parsing.
    expect(cache.peekSent(`bearer ${good}`, 0)).toBeUndefined();
    expect(cache.peekSent(`Bearer ${good} `, 0)).toBeUndefined();
    expect(cache.peekSent(good, 0)).toBeUndefined();
    // At exp the entry is gone for both.
    expect(cache.peekSent(`Bearer ${good}`, 100_000)).toBeUndefined();
    expect(cache.peek(good, 0)).toBeUndefined();
  });
});
