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

  it('hands a refresh the answer it replaces, so unchanged bytes keep their ETag and compressed forms', async () => {
    const cache = new AvailabilityCache(1000);
    const v1 = Buffer.from('v1');
    await cache.getOrCompute('k', 'loc', at(0), async () => v1);
    const seen: (Buffer | undefined)[] = [];
    await cache.getOrCompute('k', 'loc', at(800), async (previous) => (seen.push(previous), previous!));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([v1]);
    expect(cache.get('k', at(1700))).toBe(v1);
  });

  it('refreshes a hot answer in the background before it expires, still serving the current one', async () => {
    const cache = new AvailabilityCache(1000);
    await cache.getOrCompute('k', 'loc', at(0), async () => Buffer.from('v1'));
    let refreshes = 0;
    let release!: (body: Buffer) => void;
    const refresh = () => (refreshes++, new Promise<Buffer>((resolve) => (release = resolve)));
    // Before three quarters of its life: served, nothing computed.
    expect(String(await cache.getOrCompute('k', 'loc', at(749), refresh))).toBe('v1');
    expect(refreshes).toBe(0);
    // From then on: served at once, one refresh started however many readers come.
    expect(String(await cache.getOrCompute('k', 'loc', at(750), refresh))).toBe('v1');
    expect(String(await cache.getOrCompute('k', 'loc', at(800), refresh))).toBe('v1');
    expect(refreshes).toBe(1);
    release(Buffer.from('v2'));
    await new Promise((resolve) => setImmediate(resolve));
    // The refreshed answer is as old as the refresh's start (750), so it lasts until 1750.
    const never = async (): Promise<Buffer> => expect.fail('computed again');
    expect(String(await cache.getOrCompute('k', 'loc', at(1500), never))).toBe('v2');
    expect(cache.get('k', at(1750))).toBeUndefined();
  });

  it(
    'drops a failed refresh: the current answer is served until it expires, then the next reader ' + 'computes',
    async () => {
      const cache = new AvailabilityCache(1000);
      await cache.getOrCompute('k', 'loc', at(0), async () => Buffer.from('v1'));
      expect(
        String(await cache.getOrCompute('k', 'loc', at(900), () => Promise.reject(new Error('database down')))),
      ).toBe('v1');
      await new Promise((resolve) => setImmediate(resolve));
      expect(String(cache.get('k', at(999)))).toBe('v1');
      await expect(
        cache.getOrCompute('k', 'loc', at(1000), () => Promise.reject(new Error('database down'))),
      ).rejects.toThrow('database down');
    },
  );

  it('does not keep a refresh that started before a change was forgotten', async () => {
    const cache = new AvailabilityCache(1000);
    await cache.getOrCompute('k', 'loc', at(0), async () => Buffer.from('v1'));
    let release!: (body: Buffer) => void;
    await cache.getOrCompute('k', 'loc', at(800), () => new Promise<Buffer>((resolve) => (release = resolve)));
    cache.forget('loc');
    release(Buffer.from('from before the change'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(String(await cache.getOrCompute('k', 'loc', at(801), async () => Buffer.from('after')))).toBe('after');
  });

  it('keeps an answer from before an opening instant no longer than that instant', async () => {
    const cache = new AvailabilityCache(1000);
    await cache.getOrCompute('k', 'loc', at(0), async () => ({
      body: Buffer.from('not open'),
      validUntil: at(300).getTime(),
    }));
    expect(String(cache.get('k', at(299)))).toBe('not open');
    expect(cache.get('k', at(300))).toBeUndefined();
    expect(String(await cache.getOrCompute('k', 'loc', at(300), async () => Buffer.from('open')))).toBe('open');
  });

  it('does not hand a reader arriving after the opening a computation begun before it', async () => {
    const cache = new AvailabilityCache(1000);
    let release!: (answer: { body: Buffer; validUntil: number }) => void;
    const early = cache.getOrCompute('k', 'loc', at(0), () => new Promise((resolve) => (release = resolve)));
    const late = cache.getOrCompute('k', 'loc', at(500), async () => Buffer.from('open'));
    release({ body: Buffer.from('not open'), validUntil: at(400).getTime() });
    expect(String(await early)).toBe('not open');
    expect(String(await late)).toBe('open');
  });

  it('caches nothing when ttlMs is 0', async () => {
    const cache = new AvailabilityCache(0);
    await cache.getOrCompute('k', 'loc', at(0), async () => Buffer.from('x'));
    expect(cache.get('k', at(0))).toBeUndefined();
  });
});
