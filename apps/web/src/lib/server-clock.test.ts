import { afterEach, describe, expect, it } from 'vitest';
import { noteServerDate, resetServerClock, serverNow } from './server-clock';

describe('server clock', () => {
  afterEach(() => resetServerClock());

  it("follows the API's Date header when the device's clock is off", () => {
    const device = Date.now();
    // The server says it is 11 minutes later than the device thinks.
    noteServerDate(new Date(device + 11 * 60_000).toUTCString(), device);
    expect(Math.abs(serverNow() - (Date.now() + 11 * 60_000))).toBeLessThan(1_500);
  });

  it('ignores offsets under 2 s (the header has whole seconds), missing and unreadable headers', () => {
    const device = Date.parse('2026-12-06T00:00:00.400Z');
    noteServerDate('Sun, 06 Dec 2026 00:00:01 GMT', device);
    expect(Math.abs(serverNow() - Date.now())).toBeLessThan(50);
    noteServerDate('Sun, 06 Dec 2026 00:05:00 GMT', device);
    const skewed = serverNow() - Date.now();
    noteServerDate(null);
    noteServerDate('not a date');
    expect(Math.abs(serverNow() - Date.now() - skewed)).toBeLessThan(50);
  });
});
