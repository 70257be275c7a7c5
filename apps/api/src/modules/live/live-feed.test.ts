import type { LiveSnapshot } from '@kringle/contracts/live';
import { describe, expect, it } from 'vitest';
import { LiveFeed } from './live-feed';

const snapshot = (n: number): LiveSnapshot => ({ at: new Date(n).toISOString(), locations: [], errorsLast5Min: n });

describe('LiveFeed', () => {
  it('reads once per 2 s for every stream, sends each the same figures, and stops with the last one gone', async () => {
    let reads = 0;
    const feed = new LiveFeed(
      async () => snapshot(++reads),
      () => {},
    );
    const got: number[][] = [[], [], []];
    const stops = got.map((list) => feed.subscribe((s) => list.push(s.errorsLast5Min)));
    await new Promise((r) => setTimeout(r, 4_300));
    // One read at the first subscription, then one per tick: not one per stream.
    expect(reads).toBe(3);
    for (const list of got) expect(list).toEqual([1, 2, 3]);
    // A GET within 2 s of the last read shares it.
    expect((await feed.current()).errorsLast5Min).toBe(3);
    expect(reads).toBe(3);
    for (const stop of stops) stop();
    await new Promise((r) => setTimeout(r, 2_200));
    expect(reads).toBe(3);
  });

  it('reports a failed read and carries on at the next tick', async () => {
    let reads = 0;
    const errors: unknown[] = [];
    const feed = new LiveFeed(
      async () => {
        if (++reads === 2) throw new Error('database away');
        return snapshot(reads);
      },
      (err) => errors.push(err),
    );
    const got: number[] = [];
    const stop = feed.subscribe((s) => got.push(s.errorsLast5Min));
    await new Promise((r) => setTimeout(r, 4_300));
    stop();
    expect(errors).toHaveLength(1);
    expect(got).toEqual([1, 3]);
  });
});
