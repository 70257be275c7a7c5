import { describe, expect, it } from 'vitest';
import { localDateOf, localTimeOf } from '@kringle/contracts/dates';
import { parseSeason, SeasonFileError } from './season.service';
import { demoSeason } from './demo-season';
import { planLocationSlots } from './slot-planner';

const season = parseSeason(demoSeason(new Date('2026-11-21T00:00:00Z')));
const sydney = season.locations.find((l) => l.timezone === 'Australia/Sydney')!;

describe('planLocationSlots', () => {
  const plan = planLocationSlots(sydney, season.slotTypes);
  const onDay = (localDate: string) => plan.filter((s) => localDateOf(s.startAt, 'Australia/Sydney') === localDate);

  it('fills a day with sessions of the type length and inserts the breaks', () => {
    // Sat 5 Dec 2026 local = 4 Dec 23:00Z .. 5 Dec 06:30Z (AEDT, +11).
    const saturday = plan.filter(
      (s) => s.startAt >= new Date('2026-12-04T13:00:00Z') && s.startAt < new Date('2026-12-05T13:00:00Z'),
    );
    const times = saturday.map((s) => `${s.kind}@${localTimeOf(s.startAt, 'Australia/Sydney')}`);
    expect(times[0]).toBe('session@10:00');
    expect(times).toContain('break@12:00');
    expect(times).not.toContain('session@12:00');
    expect(times).toContain('session@12:40');
    expect(times).toContain('break@15:00');
    expect(times.at(-1)).toBe('session@17:20');
    // 10:00-17:30 less 40 + 20 minutes of breaks, 10-minute sessions.
    expect(saturday.filter((s) => s.kind === 'session')).toHaveLength((450 - 60) / 10);
  });

  it('runs sensory sessions before opening on Sundays and Wednesdays, pet night on Mondays', () => {
    const sunday = plan.filter(
      (s) =>
        s.slotTypeSlug === 'sensory' &&
        s.startAt >= new Date('2026-12-05T13:00:00Z') &&
        s.startAt < new Date('2026-12-06T13:00:00Z'),
    );
    expect(sunday.map((s) => localTimeOf(s.startAt, 'Australia/Sydney'))).toEqual(['08:30', '08:50', '09:10', '09:30']);
    const monday = plan.filter(
      (s) =>
        s.slotTypeSlug === 'pet-night' &&
        s.startAt >= new Date('2026-12-06T13:00:00Z') &&
        s.startAt < new Date('2026-12-07T13:00:00Z'),
    );
    expect(monday).toHaveLength(8);
  });

  it('skips closed dates', () => {
    // A six-week season runs past Christmas: Christmas Day stays closed, Boxing Day opens.
    const long = parseSeason(demoSeason(new Date('2026-11-21T00:00:00Z'), { days: 42 }));
    const longPlan = planLocationSlots(long.locations[0]!, long.slotTypes);
    const onLongDay = (localDate: string) =>
      longPlan.filter((s) => localDateOf(s.startAt, 'Australia/Sydney') === localDate);
    expect(onLongDay('2026-12-25')).toHaveLength(0);
    expect(onLongDay('2026-12-24').length).toBeGreaterThan(0);
    expect(onLongDay('2026-12-26').length).toBeGreaterThan(0);
  });

  it('keeps local opening times across zones', () => {
    const perth = season.locations.find((l) => l.timezone === 'Australia/Perth')!;
    const first = planLocationSlots(perth, season.slotTypes).find((s) => s.slotTypeSlug === 'standard')!;
    expect(localTimeOf(first.startAt, 'Australia/Perth')).toBe('10:00');
    expect(first.startAt.getUTCHours()).toBe(2);
  });

  it('sells every day from today to Christmas Eve in every zone, and nothing after', () => {
    for (const location of season.locations) {
      const days = new Set(
        planLocationSlots(location, season.slotTypes).map((s) => localDateOf(s.startAt, location.timezone)),
      );
      expect([...days].sort()).toHaveLength(34); // 21 Nov to 24 Dec 2026
      expect([...days].sort().at(-1)).toBe('2026-12-24');
    }
    expect(onDay('2026-12-24').length).toBeGreaterThan(0);
    expect(onDay('2026-12-25')).toHaveLength(0);
  });
});

describe('season file validation', () => {
  it('names every problem with its path', () => {
    const bad = demoSeason(new Date('2026-11-21T00:00:00Z'));
    bad.locations[0]!.timezone = 'Mars/Olympus';
    bad.locations[1]!.sessions[0]!.slotType = 'nope';
    bad.locations[2]!.sessions.push({ slotType: 'standard', days: ['mon'], hours: '17:00-19:00' });
    bad.packages.push({ ...bad.packages[0]!, priceCents: -1 });
    try {
      parseSeason(bad);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(SeasonFileError);
      const problems = (err as SeasonFileError).problems.join('\n');
      expect(problems).toContain('locations.0.timezone: an IANA time zone');
      expect(problems).toContain('locations.1.sessions.0.slotType: unknown slot type "nope"');
      expect(problems).toContain('locations.2.sessions.4.hours: overlaps sessions[');
      expect(problems).toContain('packages.5.priceCents');
      expect(problems).toContain('packages.5.slug: duplicate slug "digital-memories"');
    }
  });

  it('rejects unknown fields and bad windows', () => {
    const bad = demoSeason() as Record<string, unknown>;
    bad.extra = true;
    expect(() => parseSeason(bad)).toThrow(/Unrecognized key/);
    const badWindow = demoSeason();
    badWindow.locations[0]!.breaks = ['13:00-12:00'];
    expect(() => parseSeason(badWindow)).toThrow(/not a window of one day/);
  });
});
