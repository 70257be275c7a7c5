import { describe, expect, it } from 'vitest';
import { seasonSchema } from '@kringle/contracts/season';
import { demoSeason } from './demo-season';
import { diffSeasonFiles } from './season-file-diff';

const NOW = new Date('2026-12-01T00:00:00Z');
// Through JSON, as a file is: the demo shares one sessions list between its locations, which structuredClone would keep
// shared.
const file = (): ReturnType<typeof demoSeason> => JSON.parse(JSON.stringify(demoSeason(NOW, { days: 14 })));
const parsed = (f: ReturnType<typeof file>) => seasonSchema.parse(f);

describe('diffSeasonFiles: every change a save makes take effect (issue 53 items 6 and 7)', () => {
  it('lists nothing for the same file, and nothing without a live version', () => {
    expect(diffSeasonFiles(parsed(file()), parsed(file()))).toEqual([]);
    expect(diffSeasonFiles(null, parsed(file()))).toEqual([]);
  });

  it('lists a package price change ($39.95 → $42.95), an add-on price and the extra photo price', () => {
    const next = file();
    const classic = next.packages.find((p) => p.priceCents === 3995)!;
    classic.priceCents = 4295;
    next.addOns![0]!.priceCents += 100;
    next.extraPhotoPriceCents = 1000;
    const changes = diffSeasonFiles(parsed(file()), parsed(next));
    expect(changes).toEqual([
      {
        item: 'season',
        slug: null,
        name: 'Extra photos',
        change: 'changed',
        field: 'extraPhotoPriceCents',
        before: 900,
        after: 1000,
      },
      {
        item: 'package',
        slug: classic.slug,
        name: classic.name,
        change: 'changed',
        field: 'priceCents',
        before: 3995,
        after: 4295,
      },
      {
        item: 'addOn',
        slug: next.addOns![0]!.slug,
        name: next.addOns![0]!.name,
        change: 'changed',
        field: 'priceCents',
        before: file().addOns![0]!.priceCents,
        after: next.addOns![0]!.priceCents,
      },
    ]);
  });

  it('lists an opening time and the waiting room as they take effect (30 minutes by default, 0 for none)', () => {
    const next = file();
    const sydney = next.locations[0]!;
    sydney.salesOpenAt = '2026-12-05T09:00';
    const changes = diffSeasonFiles(parsed(file()), parsed(next));
    expect(changes).toEqual([
      {
        item: 'location',
        slug: sydney.slug,
        name: sydney.name,
        change: 'changed',
        field: 'salesOpenAt',
        before: null,
        after: '2026-12-05T09:00',
      },
      {
        item: 'location',
        slug: sydney.slug,
        name: sydney.name,
        change: 'changed',
        field: 'queue',
        before: 0,
        after: 30,
      },
    ]);
    const noLine = structuredClone(next);
    noLine.locations[0]!.queue = { opensMinutesBefore: 0 };
    expect(diffSeasonFiles(parsed(next), parsed(noLine))).toEqual([
      {
        item: 'location',
        slug: sydney.slug,
        name: sydney.name,
        change: 'changed',
        field: 'queue',
        before: 30,
        after: 0,
      },
    ]);
    // Spelling out the default changes nothing.
    const spelled = structuredClone(next);
    spelled.locations[0]!.queue = { opensMinutesBefore: 30 };
    expect(diffSeasonFiles(parsed(next), parsed(spelled))).toEqual([]);
  });

  it('lists hours, session lengths, products added and retired', () => {
    const next = file();
    next.locations[0]!.sessions[0]!.hours = '08:30-09:30';
    next.slotTypes[0]!.durationMinutes = 15;
    const gone = next.addOns!.pop()!;
    next.packages.push({ ...structuredClone(next.packages[0]!), slug: 'new-one', name: 'New one' });
    const changes = diffSeasonFiles(parsed(file()), parsed(next));
    expect(changes.map((c) => [c.item, c.slug, c.change, c.field])).toEqual([
      ['location', next.locations[0]!.slug, 'changed', 'sessions'],
      ['slotType', next.slotTypes[0]!.slug, 'changed', 'durationMinutes'],
      ['package', 'new-one', 'added', null],
      ['addOn', gone.slug, 'removed', null],
    ]);
    expect(changes[0]!.after).toContain('sensory sun wed 08:30-09:30');
  });
});
