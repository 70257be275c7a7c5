import { describe, expect, it } from 'vitest';
import { exportFileName } from './privacy';

/** Issue 53 item 16: the export was named by the UTC date. */
describe('exportFileName', () => {
  it("dates the file by the family's calendar, not UTC's", () => {
    // 22:30 UTC on 1 December is 9:30 am on 2 December in Sydney, still 6:30 am on 2 December in Perth.
    const at = new Date('2026-12-01T22:30:00Z');
    expect(exportFileName(at, 'Australia/Sydney')).toBe('my-data-2026-12-02.json');
    expect(exportFileName(at, 'Australia/Perth')).toBe('my-data-2026-12-02.json');
    expect(exportFileName(new Date('2026-12-01T15:30:00Z'), 'Australia/Perth')).toBe('my-data-2026-12-01.json');
    expect(exportFileName(at, 'UTC')).toBe('my-data-2026-12-01.json');
    expect(exportFileName(at, 'Not/AZone')).toBe('my-data-2026-12-01.json');
  });
});
