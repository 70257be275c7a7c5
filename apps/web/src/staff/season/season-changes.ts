import { formatSessionTime, zonedToInstant } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';
import type { SeasonChange, SeasonChangeValue } from '@kringle/contracts/season-editor';
import type { SeasonFile } from './season-api';

const ITEMS: Record<SeasonChange['item'], string> = {
  season: 'Season',
  location: 'Location',
  slotType: 'Session type',
  package: 'Package',
  addOn: 'Add-on',
};
const FIELDS: Record<string, string> = {
  priceCents: 'price',
  extraPhotoPriceCents: 'price of each extra photo',
  salesOpenAt: 'bookings open',
  queue: 'waiting room',
  name: 'name',
  description: 'description',
  address: 'address',
  suburb: 'suburb',
  state: 'state',
  timezone: 'time zone',
  imageUrl: 'picture',
  seasonStart: 'season starts',
  seasonEnd: 'season ends',
  sessions: 'opening hours',
  breaks: "Santa's breaks",
  closedDates: 'closed dates',
  durationMinutes: 'session length',
  allowsPets: 'pets allowed',
  includes: 'includes',
  maxQuantity: 'most per booking',
  slotTypes: 'session types',
  digitalPhotos: 'digital photos',
};

/** "Sat 20 Dec, 9:00 am AEDT": a local date-time of the file, in the location's own zone. */
export function formatLocalOpening(local: string, timeZone: string): string {
  const [day, time] = local.split('T') as [string, string];
  try {
    return formatSessionTime(zonedToInstant(day, time, timeZone), timeZone);
  } catch {
    return local;
  }
}

function valueText(change: SeasonChange, value: SeasonChangeValue | null, timeZone: string): string {
  const field = change.field ?? '';
  if (field === 'salesOpenAt') return value === null ? 'as soon as saved' : formatLocalOpening(String(value), timeZone);
  if (field === 'queue') return value === 0 || value === null ? 'none' : `opens ${String(value)} minutes before`;
  if (value === null || value === '') return 'not set';
  if (field.endsWith('Cents') && typeof value === 'number') return formatAud(value);
  if (field === 'durationMinutes') return `${String(value)} minutes`;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/**
 * One change of the preview in a manager's words (issue 53 item 6): "Package Classic Print: price
 * $39.95 → $42.95". A location's opening time reads in that location's zone, whatever the browser's.
 */
export function describeChange(change: SeasonChange, file: SeasonFile): string {
  const what = `${ITEMS[change.item]} ${change.name}`.replace(/^Season Extra photos$/, 'Extra photos');
  if (change.change === 'added') return `${what}: added`;
  if (change.change === 'removed')
    return `${what}: ${change.item === 'slotType' ? 'removed' : 'retired (no longer sold)'}`;
  const timeZone = file.locations.find((l) => l.slug === change.slug)?.timezone ?? 'Australia/Sydney';
  const field = FIELDS[change.field ?? ''] ?? change.field ?? '';
  return (
    `${what}: ${field} ${valueText(change, change.before, timeZone)} → ` +
    `${valueText(change, change.after, timeZone)}`
  );
}
