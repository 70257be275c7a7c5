import { queueOpensMinutesBefore, type Season } from '@kringle/contracts/season';
import type { SeasonChange, SeasonChangeValue } from '@kringle/contracts/season-editor';

type Item = SeasonChange['item'];
type Row = Record<string, unknown> & { slug: string; name: string };

/**
 * One value of the file as the preview shows it: lists as one line, opening hours as "standard mon tue 10:00-17:30".
 */
function valueOf(field: string, v: unknown): SeasonChangeValue | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (field === 'sessions' && Array.isArray(v)) {
    return (v as { slotType: string; days: string[]; hours: { from: string; to: string } }[])
      .map((s) => `${s.slotType} ${s.days.join(' ')} ${s.hours.from}-${s.hours.to}`)
      .join('; ');
  }
  if (field === 'breaks' && Array.isArray(v))
    return (v as { from: string; to: string }[]).map((w) => `${w.from}-${w.to}`).join(', ');
  if (Array.isArray(v)) return v.map(String).join(', ');
  return JSON.stringify(v);
}

/** The fields a manager changes, per item, in the order the preview lists them (prices first). */
const FIELDS: Record<Exclude<Item, 'season'>, string[]> = {
  location: [
    'salesOpenAt',
    'queue',
    'name',
    'address',
    'suburb',
    'state',
    'timezone',
    'imageUrl',
    'seasonStart',
    'seasonEnd',
    'sessions',
    'breaks',
    'closedDates',
  ],
  slotType: ['name', 'description', 'durationMinutes', 'allowsPets'],
  package: ['priceCents', 'name', 'description', 'includes', 'imageUrl', 'maxQuantity', 'slotTypes', 'digitalPhotos'],
  addOn: ['priceCents', 'name', 'description', 'maxQuantity', 'digitalPhotos'],
};

/**
 * The waiting room as it takes effect (decision 0053): minutes before salesOpenAt, 0 for none,
 * whatever the file spells (an absent `queue` is 30 with a salesOpenAt, nothing without one).
 */
const effective = (item: Item, row: Row): Row =>
  item === 'location' ? { ...row, queue: queueOpensMinutesBefore(row as Season['locations'][number]) } : row;

function diffList(
  item: Exclude<Item, 'season'>,
  before: Row[],
  after: Row[],
  out: SeasonChange[],
  opts: { removals: boolean },
) {
  const old = new Map(before.map((r) => [r.slug, effective(item, r)]));
  for (const raw of after) {
    const next = effective(item, raw);
    const prev = old.get(next.slug);
    old.delete(next.slug);
    if (!prev) {
      out.push({ item, slug: next.slug, name: next.name, change: 'added', field: null, before: null, after: null });
      continue;
    }
    for (const field of FIELDS[item]) {
      const a = valueOf(field, prev[field]);
      const b = valueOf(field, next[field]);
      if (a !== b) out.push({ item, slug: next.slug, name: next.name, change: 'changed', field, before: a, after: b });
    }
  }
  if (opts.removals)
    for (const prev of old.values())
      out.push({ item, slug: prev.slug, name: prev.name, change: 'removed', field: null, before: null, after: null });
}

/**
 * Every change of the file itself that a save makes take effect, besides what it does to the
 * sessions (season-diff.ts): prices, the opening time and waiting room, names, hours, products
 * added and retired (issue 53 items 6 and 7: "changes 0" after a price change said nothing).
 * `before` is the live version's file; null (no version saved yet) lists nothing. A location the
 * new file leaves out is not listed: the loader never removes one (decision 0056).
 */
export function diffSeasonFiles(before: Season | null, after: Season): SeasonChange[] {
  if (!before) return [];
  const out: SeasonChange[] = [];
  if (before.extraPhotoPriceCents !== after.extraPhotoPriceCents) {
    out.push({
      item: 'season',
      slug: null,
      name: 'Extra photos',
      change: 'changed',
      field: 'extraPhotoPriceCents',
      before: before.extraPhotoPriceCents,
      after: after.extraPhotoPriceCents,
    });
  }
  diffList('location', before.locations, after.locations, out, { removals: false });
  diffList('slotType', before.slotTypes, after.slotTypes, out, { removals: true });
  diffList('package', before.packages, after.packages, out, { removals: true });
  diffList('addOn', before.addOns, after.addOns, out, { removals: true });
  return out;
}
