import { describe, expect, it } from 'vitest';
import { ForwardClock } from './clock';

/** An injected stepped clock: `wall` is the system clock an operator (or NTP) can step, `mono` cannot go back. */
function stepped(start = Date.parse('2026-12-06T00:00:00Z')) {
  const t = { wall: start, mono: 1000 };
  return {
    t,
    clock: new ForwardClock(
      () => t.wall,
      () => t.mono,
    ),
    pass: (ms: number) => ((t.wall += ms), (t.mono += ms)),
  };
}

describe('ForwardClock (issue 36: a clock stepped back stretched every window)', () => {
  it('follows the wall clock while it runs normally', () => {
    const { t, clock, pass } = stepped();
    pass(5000);
    expect(clock.now().getTime()).toBe(t.wall);
  });

  it('carries on at the monotonic pace when the wall clock is stepped back 2 h', () => {
    const { t, clock, pass } = stepped();
    const before = clock.now().getTime();
    t.wall -= 2 * 3600_000;
    expect(clock.now().getTime()).toBe(before);
    pass(60_000);
    expect(clock.now().getTime()).toBe(before + 60_000);
  });

  it('follows a step forward at once', () => {
    const { t, clock } = stepped();
    const before = clock.now().getTime();
    t.wall += 3600_000;
    expect(clock.now().getTime()).toBe(before + 3600_000);
  });
});
