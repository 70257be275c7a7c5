import { describe, expect, it } from 'vitest';
import { noteServerDate, resetServerClock } from '../../../lib/server-clock';
import { formatCountdown, remainingSeconds } from '../../../lib/timer';
import { initialTimerState, setEndDate, stopTimer, tick, timerReducer } from './timer-slice';

const NOW = Date.parse('2026-12-06T00:00:00.000Z');

describe('timer slice (spec §4)', () => {
  it('setting an end date computes the remaining whole seconds and runs', () => {
    const state = timerReducer(initialTimerState, setEndDate('2026-12-06T00:10:00.000Z', NOW));
    expect(state).toEqual({ endDate: '2026-12-06T00:10:00.000Z', remaining: 600, isRunning: true });
  });

  it('does not run for an end date in the past (minimum 0) and clears it', () => {
    const state = timerReducer(initialTimerState, setEndDate('2026-12-05T23:59:00.000Z', NOW));
    expect(state).toEqual({ endDate: null, remaining: 0, isRunning: false });
  });

  it('each tick recomputes; at 0 it stops and clears the end date', () => {
    let state = timerReducer(initialTimerState, setEndDate('2026-12-06T00:00:02.000Z', NOW));
    state = timerReducer(state, tick(NOW + 1000));
    expect(state).toMatchObject({ remaining: 1, isRunning: true });
    state = timerReducer(state, tick(NOW + 1500));
    expect(state.remaining).toBe(1);
    state = timerReducer(state, tick(NOW + 2000));
    expect(state).toEqual({ endDate: null, remaining: 0, isRunning: false });
    expect(timerReducer(state, tick(NOW + 9000))).toEqual(state);
  });

  it("counts down on the server's clock: a phone 11 minutes fast still shows a fresh hold's 10 minutes", () => {
    try {
      const device = Date.now();
      const server = device - 11 * 60_000;
      noteServerDate(new Date(server).toUTCString(), device);
      const expiresAt = new Date(server + 10 * 60_000).toISOString();
      const state = timerReducer(initialTimerState, setEndDate(expiresAt));
      expect(state.isRunning).toBe(true);
      expect(Math.abs(state.remaining - 600)).toBeLessThanOrEqual(2);
    } finally {
      resetServerClock();
    }
  });

  it('stop resets the timer', () => {
    const running = timerReducer(initialTimerState, setEndDate('2026-12-06T00:10:00.000Z', NOW));
    expect(timerReducer(running, stopTimer())).toEqual(initialTimerState);
  });

  it('helpers: whole seconds rounded up, never negative; mm:ss display', () => {
    expect(remainingSeconds(NOW + 599_001, NOW)).toBe(600);
    expect(remainingSeconds(NOW - 5, NOW)).toBe(0);
    expect(remainingSeconds('not a date', NOW)).toBe(0);
    expect(formatCountdown(605)).toBe('10:05');
    expect(formatCountdown(0)).toBe('0:00');
  });
});
