import { describe, expect, it } from 'vitest';
import { HEARD_TTL_MS, TakenSessions } from './taken-sessions';

const T0 = new Date('2026-12-01T00:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const SLOT = 's1';

describe('TakenSessions', () => {
  it('refuses everyone but the holder until the TTL or the hold ends, whichever is first', () => {
    const memo = new TakenSessions(1000);
    memo.remember(SLOT, 'holly', at(400), T0, memo.version);
    expect(memo.refuses(SLOT, 'noel', at(399))).toBe(true);
    expect(memo.refuses(SLOT, 'holly', at(399))).toBe(false);
    expect(memo.refuses(SLOT, 'noel', at(400))).toBe(false);

    memo.remember(SLOT, null, null, T0, memo.version);
    expect(memo.refuses(SLOT, 'holly', at(999))).toBe(true);
    expect(memo.refuses(SLOT, 'holly', at(1000))).toBe(false);
  });

  it("knows a session on another customer's hold, so that refusal needs no look for the family's own checkout", () => {
    const memo = new TakenSessions(1000);
    memo.remember(SLOT, 'holly', at(400), T0, memo.version);
    expect(memo.heldByAnother(SLOT, 'noel', at(399))).toBe(true);
    expect(memo.heldByAnother(SLOT, 'holly', at(399))).toBe(false);
    expect(memo.heldByAnother(SLOT, 'noel', at(400))).toBe(false);
    // Booked or in a checkout, whose is not known here: it could be the family's own.
    memo.remember(SLOT, null, null, T0, memo.version);
    expect(memo.heldByAnother(SLOT, 'noel', at(1))).toBe(false);
  });

  it('does not keep what a query saw before the session was freed here', () => {
    const memo = new TakenSessions(1000);
    const before = memo.version;
    memo.forget([SLOT]);
    memo.remember(SLOT, 'holly', null, T0, before);
    expect(memo.refuses(SLOT, 'noel', T0)).toBe(false);
  });

  it('treats a clock moved back as stale, and keeps nothing with a TTL of 0', () => {
    const memo = new TakenSessions(1000);
    memo.remember(SLOT, 'holly', null, T0, memo.version);
    expect(memo.refuses(SLOT, 'noel', at(-1))).toBe(false);
    const off = new TakenSessions(0);
    off.remember(SLOT, 'holly', null, T0, off.version);
    expect(off.refuses(SLOT, 'noel', T0)).toBe(false);
  });

  it('keeps entries HEARD_TTL_MS while it hears every free, and forgets all when it may not', () => {
    const memo = new TakenSessions(1000);
    memo.setListening(true);
    memo.remember(SLOT, 'holly', null, T0, memo.version);
    expect(memo.refuses(SLOT, 'noel', at(HEARD_TTL_MS - 1))).toBe(true);
    expect(memo.refuses(SLOT, 'noel', at(HEARD_TTL_MS))).toBe(false);
    memo.remember(SLOT, 'holly', null, T0, memo.version);
    memo.setListening(false);
    expect(memo.refuses(SLOT, 'noel', T0)).toBe(false);
  });

  it('drops the oldest entry when full', () => {
    const memo = new TakenSessions(1000, 2);
    for (const id of ['a', 'b', 'c']) memo.remember(id, null, null, T0, memo.version);
    expect(['a', 'b', 'c'].map((id) => memo.refuses(id, 'noel', T0))).toEqual([false, true, true]);
  });

  it('lets attempts that arrive meanwhile wait for the one asking, failed or not', async () => {
    const memo = new TakenSessions(1000);
    let answer!: (v: string) => void;
    const asking = memo.track(SLOT, () => new Promise<string>((resolve) => (answer = resolve)));
    const waiting = memo.settled(SLOT);
    expect(waiting).toBeDefined();
    answer('done');
    await expect(asking).resolves.toBe('done');
    await expect(waiting).resolves.toBeUndefined();
    expect(memo.settled(SLOT)).toBeUndefined();

    const failing = memo.track(SLOT, () => Promise.reject(new Error('database gone')));
    await expect(memo.settled(SLOT)).resolves.toBeUndefined();
    await expect(failing).rejects.toThrow('database gone');
  });
});
