import { describe, expect, it } from 'vitest';
import { SlotFeed, type SlotChange, type SlotNow } from './slot-feed';

const A = '11111111-1111-4111-8111-111111111111';
const LOC = 'loc-1';

function feedWith(rows: () => SlotNow[]) {
  const feed = new SlotFeed();
  const lookups: string[][] = [];
  let release: () => void = () => {};
  let gate: Promise<void> | null = null;
  feed.setLookup(async (ids) => {
    lookups.push(ids);
    if (gate) await gate;
    return rows().filter((r) => ids.includes(r.slotId));
  });
  const hold = () => (gate = new Promise((r) => (release = () => ((gate = null), r()))));
  return { feed, lookups, hold, release: () => release() };
}
const wait = (ms = 30) => new Promise((r) => setTimeout(r, ms));

describe('SlotFeed', () => {
  it('does nothing, not even a lookup, while no stream is open', async () => {
    const { feed, lookups } = feedWith(() => [{ slotId: A, locationId: LOC, date: '2026-12-05', status: 'available' }]);
    feed.taken([A]);
    feed.changed([A]);
    await wait();
    expect(lookups).toEqual([]);
  });

  it(
    'reads an unknown or freed slot once per batch, then sends holds of a known slot at once as ' + 'reserved',
    async () => {
      let status: SlotChange['status'] = 'available';
      const { feed, lookups } = feedWith(() => [{ slotId: A, locationId: LOC, date: '2026-12-05', status }]);
      const got: SlotChange[] = [];
      const other: SlotChange[] = [];
      feed.subscribe(LOC, { send: (c) => got.push(c), end: () => {} });
      feed.subscribe('loc-2', { send: (c) => other.push(c), end: () => {} });
      feed.changed([A]);
      feed.changed([A]);
      await wait();
      expect(lookups).toEqual([[A]]);
      expect(got).toEqual([{ slotId: A, date: '2026-12-05', status: 'available' }]);
      status = 'reserved';
      feed.taken([A]);
      expect(got.at(-1)).toEqual({ slotId: A, date: '2026-12-05', status: 'reserved' });
      expect(lookups).toHaveLength(1);
      expect(other).toEqual([]);
    },
  );

  it('never sends a hold before a free still being read: the hold waits for the next read', async () => {
    let status: SlotChange['status'] = 'available';
    const { feed, lookups, hold, release } = feedWith(() => [
      { slotId: A, locationId: LOC, date: '2026-12-05', status },
    ]);
    const got: string[] = [];
    feed.subscribe(LOC, { send: (c) => got.push(c.status), end: () => {} });
    feed.changed([A]);
    await wait();
    hold();
    feed.changed([A]);
    await wait();
    // The free's read is under way; meanwhile the slot is taken again.
    status = 'reserved';
    feed.taken([A]);
    expect(got).toEqual(['available']);
    release();
    await wait();
    expect(lookups).toHaveLength(3);
    expect(got.at(-1)).toBe('reserved');
  });

  it('ends every stream when it stops hearing changes, and keeps none', () => {
    const { feed } = feedWith(() => []);
    let ended = 0;
    feed.subscribe(LOC, { send: () => {}, end: () => (ended += 1) });
    feed.subscribe('loc-2', { send: () => {}, end: () => (ended += 1) });
    feed.setListening(true);
    expect(feed.openStreams).toBe(2);
    feed.setListening(false);
    expect(ended).toBe(2);
    expect(feed.openStreams).toBe(0);
    expect(feed.listening).toBe(false);
  });
});
