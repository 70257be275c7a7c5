import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttle } from './throttle';

describe('throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs at once, folds a burst into one trailing call with the latest arguments', () => {
    const fn = vi.fn();
    const t = throttle(fn, 2000);
    t(1);
    t(2);
    t(3);
    expect(fn.mock.calls).toEqual([[1]]);
    vi.advanceTimersByTime(1999);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(fn.mock.calls).toEqual([[1], [3]]);
  });

  it('runs again at once after the window has passed', () => {
    const fn = vi.fn();
    const t = throttle(fn, 2000);
    t('a');
    vi.advanceTimersByTime(2500);
    t('b');
    expect(fn.mock.calls).toEqual([['a'], ['b']]);
  });

  it('cancel drops the pending trailing call', () => {
    const fn = vi.fn();
    const t = throttle(fn, 2000);
    t(1);
    t(2);
    t.cancel();
    vi.advanceTimersByTime(5000);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
