import { describe, expect, it } from 'vitest';
import { demoSeason, demoSeasonDates } from './demo-season';

describe('demoSeasonDates (Sydney calendar)', () => {
  it.each([
    ['2026-11-23T00:00:00Z', '2026-11-23', '2026-12-24'],
    ['2026-12-20T03:00:00Z', '2026-12-20', '2026-12-24'],
    ['2026-12-23T13:30:00Z', '2026-12-24', '2026-12-24'], // 00:30 on Christmas Eve in Sydney
    ['2026-12-24T13:30:00Z', '2027-11-01', '2027-12-24'], // 00:30 on Christmas Day in Sydney: next year's
    ['2026-12-31T00:00:00Z', '2027-11-01', '2027-12-24'],
    ['2027-03-15T00:00:00Z', '2027-03-15', '2027-12-24'],
  ])('at %s runs %s to %s', (now, seasonStart, seasonEnd) => {
    expect(demoSeasonDates(new Date(now))).toEqual({ seasonStart, seasonEnd });
  });

  it('runs a fixed number of days from today when asked, whatever the date', () => {
    expect(demoSeasonDates(new Date('2026-12-20T03:00:00Z'), 42)).toEqual({
      seasonStart: '2026-12-20',
      seasonEnd: '2027-01-30',
    });
    expect(demoSeasonDates(new Date('2026-12-20T03:00:00Z'), 1)).toEqual({
      seasonStart: '2026-12-20',
      seasonEnd: '2026-12-20',
    });
  });
});

describe('demoSeason', () => {
  it('gives the three centres the same dates and closes Christmas Day in every year the season touches', () => {
    const season = demoSeason(new Date('2026-12-20T03:00:00Z'), { days: 42 });
    expect(season.locations.map((l) => l.timezone)).toEqual([
      'Australia/Sydney',
      'Australia/Brisbane',
      'Australia/Perth',
    ]);
    for (const l of season.locations)
      expect(l).toMatchObject({
        seasonStart: '2026-12-20',
        seasonEnd: '2027-01-30',
        closedDates: ['2026-12-25', '2027-12-25'],
      });
    expect(demoSeason(new Date('2026-11-23T00:00:00Z')).locations[0]).toMatchObject({
      seasonEnd: '2026-12-24',
      closedDates: ['2026-12-25'],
    });
  });
});
