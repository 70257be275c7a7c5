import { describe, expect, it } from 'vitest';
import { AvailabilityCache } from './availability.cache';

const at = (ms: number) => new Date(1_000_000 + ms);

describe('AvailabilityCache', () => {
  it('computes an answer once for requests that arrive together, and keeps it for ttlMs', async () => {
    const cache = new AvailabilityCache(1000);
    let computed = 0;
    let release!: (body: Buffer) => void;
    const compute = () => (computed++, new Promise<Buffer>((resolve) => (release = resolve)));
    const together = [cache.getOrCompute('k', 'loc', at(0), compute), cache.getOrCompute('k', 'loc', at(0), compute)];
    release(Buffer.from('{"a":1}'));
    expect((await Promise.all(together)).map(String)).toEqual(['{"a":1}', '{"a":1}']);
    expect(String(await cache.getOrCompute('k', 'loc', at(999), async () => Buffer.from('new')))).toBe('{"a":1}');
    expect(String(await cache.getOrCompute('k', 'loc', at(1000), async () => Buffer.from('new')))).toBe('new');
    expect(computed).toBe(1);
  });

  it('does not keep an answer whose computation started before a change was forgotten', async () => {
    const cache = new AvailabilityCache(1000);
    let release!: (body: Buffer) => void;
    const before = cache.getOrCompute('k', 'loc', at(0), () => new Promise<Buffer>((resolve) => (release = resolve)));
    cache.forget('loc');
    release(Buffer.from('stale'));
    expect(String(await before)).toBe('stale');
    expect(String(await cache.getOrCompute('k', 'loc', at(1), async () => Buffer.from('fresh')))).toBe('fresh');
  });

  it("forgets one location's answers, or all of them", async () => {
    const cache = new AvailabilityCache(1000);
    cache.set('a', 'loc-a', Buffer.from('A'), at(0));
    cache.set('b', 'loc-b', Buffer.from('B'), at(0));
    cache.forget('loc-a');
    expect([cache.get('a', at(1)), cache.get('b', at(1))?.toString()]).toEqual([undefined, 'B']);
    cache.forget();
    expect(cache.get('b', at(1))).toBeUndefined();
  });

  it('caches nothing when ttlMs is 0', async () => {
    const cache = new AvailabilityCache(0);
    await cache.getOrCompute('k', 'loc', at(0), async () => Buffer.from('x'));
    expect(cache.get('k', at(0))).toBeUndefined();
  });
});
