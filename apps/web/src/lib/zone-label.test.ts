import { describe, expect, it } from 'vitest';
import { zoneLabel, zoneLabelAt } from './zone-label';

describe('zoneLabel (issue 53 item 19)', () => {
  it('names the zone by its city and short name, not by a suburb', () => {
    expect(zoneLabelAt('2026-12-06T00:00:00Z', 'Australia/Brisbane')).toBe('Brisbane time (AEST)');
    expect(zoneLabelAt('2026-12-06T00:00:00Z', 'Australia/Sydney')).toBe('Sydney time (AEDT)');
    expect(zoneLabelAt('2026-07-06T00:00:00Z', 'Australia/Sydney')).toBe('Sydney time (AEST)');
    expect(zoneLabelAt('2026-12-06T00:00:00Z', 'Australia/Lord_Howe')).toBe('Lord Howe time (LHDT)');
    expect(zoneLabel('America/Argentina/Buenos_Aires', null)).toBe('Buenos Aires time');
  });
});
