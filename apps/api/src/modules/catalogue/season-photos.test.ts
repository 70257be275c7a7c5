import { describe, expect, it } from 'vitest';
import { demoSeason } from './demo-season';
import { ALL_PHOTOS, describeSeasonErrors, seasonSchema, storedDigitalPhotos } from '@kringle/contracts/season';

describe('digitalPhotos in the season file (issue 39)', () => {
  const base = demoSeason(new Date('2026-11-26T00:00:00Z'));

  it('the demo packages include some, one of them all', () => {
    const parsed = seasonSchema.parse(base);
    expect(parsed.packages.map((p) => p.digitalPhotos)).toEqual([3, 2, 'all', 'all', 2]);
    expect(parsed.addOns.every((a) => a.digitalPhotos === undefined)).toBe(true);
  });

  it('takes a count 0-1000 or "all" on packages and add-ons; anything else is named', () => {
    const withAddOn = { ...base, addOns: [{ ...base.addOns![0]!, digitalPhotos: 5 }] };
    expect(seasonSchema.safeParse(withAddOn).success).toBe(true);
    for (const bad of [-1, 1.5, 1001, 'some', null]) {
      const result = seasonSchema.safeParse({ ...base, packages: [{ ...base.packages[0]!, digitalPhotos: bad }] });
      expect(result.success).toBe(false);
      expect(describeSeasonErrors(result.error!).join('\n')).toMatch(/^packages\.0\.digitalPhotos: /m);
    }
  });

  it('stores null for none, -1 for all', () => {
    expect([
      storedDigitalPhotos(undefined),
      storedDigitalPhotos(0),
      storedDigitalPhotos(4),
      storedDigitalPhotos('all'),
    ]).toEqual([null, 0, 4, ALL_PHOTOS]);
  });
});
