import type { AuditAbout, AuditEntry } from './audit';
import { formatClockTime, formatSessionTime } from './dates';
import { formatAud } from './money';

/**
 * An audit entry's change in plain words (issue 53 item 9), for the audit page and its CSV alike:
 * "Status: Confirmed → Checked in", "Session: Sat 6 Dec, 10:40 am AEDT → Sun 7 Dec, 9:00 am AEDT".
 * The trail stores internal values (states, ids); this says them as a manager reads them.
 */
const STATE_LABELS: Record<string, string> = {
  new: 'New',
  pending: 'Awaiting payment',
  failed: 'Payment declined',
  lapsed: 'Checkout lapsed',
  confirmed: 'Confirmed',
  checked_in: 'Checked in',
  no_show: 'No-show',
  cancelled: 'Cancelled',
  // A session's own state (its hold, its closure).
  free: 'Free',
  held: 'Held',
  open: 'Open',
  closed: 'Closed',
};

const ROLE_LABELS: Record<string, string> = { manager: 'Manager', support: 'Support', set: 'Set' };

const ORDER_LABELS: Record<string, string> = {
  pending: 'Pending',
  paid: 'Paid',
  failed: 'Failed',
  refunded: 'Refunded',
};

const FIELD_LABELS: Record<string, string> = {
  children: 'children',
  adults: 'adults',
  pets: 'pets',
  accessNeeds: 'access needs',
  accessNote: 'access note',
  noteForSanta: 'note for Santa',
  firstName: 'first name',
  lastName: 'last name',
  phone: 'phone',
  preferredLocationId: 'preferred location',
};

/** Keys said by a rule below, or not worth saying (ids the page shows elsewhere). */
const HANDLED = new Set([
  'state',
  'slotId',
  'status',
  'cancelReason',
  'reservationId',
  'staffId',
  'email',
  'photoIds',
  'photoId',
  'bookingId',
  'locationId',
  'waitlistEntryId',
  'role',
  'locationIds',
  'active',
  'invited',
  'invitationPending',
  'mfaEnrolled',
  'paused',
  'people',
  'changed',
  'photos',
  'unlocked',
  'unmatched',
  'orderStatus',
  'count',
  'version',
  'holdExpiresAt',
  'preferredLocationId',
  'sessionsEnded',
]);

const humanise = (key: string) =>
  key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/^./, (c) => c.toUpperCase())
    .replace(/ ([A-Z])/g, (_, c: string) => ` ${c.toLowerCase()}`);
const isInstant = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(v);
const arrow = (before: string | null, after: string) =>
  before === null || before === after ? after : `${before} → ${after}`;

export function describeChange(
  e: Pick<AuditEntry, 'before' | 'after' | 'slotId' | 'about'>,
  fallbackZone: string,
): string[] {
  const about: AuditAbout = e.about ?? { reference: null, family: null, location: null, sessions: {}, locations: {} };
  const zone = about.location?.timezone ?? fallbackZone;
  const b = e.before;
  const a = e.after;
  const parts: string[] = [];
  const session = (id: unknown) =>
    typeof id === 'string' && about.sessions[id] ? formatSessionTime(about.sessions[id], zone) : null;
  const place = (id: unknown) => (typeof id === 'string' ? (about.locations[id] ?? 'a location') : null);
  const places = (ids: unknown) =>
    Array.isArray(ids) ? (ids.length ? ids.map(place).join(', ') : 'All locations') : null;
  const changedBetween = (k: string) => k in a && JSON.stringify(b[k] ?? null) !== JSON.stringify(a[k] ?? null);

  if (typeof a.staffId === 'string' && typeof a.email === 'string') parts.push(`Staff member ${a.email}`);
  // A hold or a closure is about one session, named by the entry itself.
  if (e.slotId && !('slotId' in a) && session(e.slotId)) parts.push(`Session ${session(e.slotId)}`);
  if ('state' in a && (b.state ?? null) !== a.state) {
    const from = typeof b.state === 'string' && b.state !== 'new' ? (STATE_LABELS[b.state] ?? b.state) : null;
    parts.push(`Status: ${arrow(from, STATE_LABELS[String(a.state)] ?? String(a.state))}`);
  }
  if (typeof a.slotId === 'string' && b.slotId !== a.slotId)
    parts.push(`Session: ${arrow(session(b.slotId), session(a.slotId) ?? 'another session')}`);
  if (isInstant(a.holdExpiresAt)) parts.push(`Held until ${formatClockTime(a.holdExpiresAt, zone)}`);
  if (changedBetween('orderStatus'))
    parts.push(
      `Order: ${arrow(
        typeof b.orderStatus === 'string' ? ORDER_LABELS[b.orderStatus]! : null,
        ORDER_LABELS[String(a.orderStatus)] ?? String(a.orderStatus),
      )}`,
    );
  if (changedBetween('role'))
    parts.push(
      `Role: ${arrow(
        typeof b.role === 'string' ? ROLE_LABELS[b.role]! : null,
        ROLE_LABELS[String(a.role)] ?? String(a.role),
      )}`,
    );
  if (changedBetween('locationIds'))
    parts.push(`Locations: ${arrow('locationIds' in b ? places(b.locationIds) : null, places(a.locationIds)!)}`);
  if (changedBetween('active'))
    parts.push(a.active ? 'Account: Deactivated → Active' : 'Account: Active → Deactivated');
  if (a.invitationPending === false) parts.push('Invitation: Pending → Accepted');
  if (changedBetween('mfaEnrolled')) parts.push(`Two-step sign-in: ${a.mfaEnrolled ? 'Off → On' : 'On → Off'}`);
  if ('paused' in a && typeof a.locationId === 'string')
    parts.push(`Waiting room at ${place(a.locationId)}: ${a.paused ? 'Admitting → Paused' : 'Paused → Admitting'}`);
  if (Array.isArray(a.changed) && a.changed.length)
    parts.push(`Changed: ${a.changed.map((k) => FIELD_LABELS[String(k)] ?? String(k)).join(', ')}`);
  if (changedBetween('preferredLocationId'))
    parts.push(`Preferred location: ${arrow(place(b.preferredLocationId), place(a.preferredLocationId) ?? 'none')}`);
  if (changedBetween('people') && typeof a.people === 'number')
    parts.push(`People: ${arrow(typeof b.people === 'number' ? String(b.people) : null, String(a.people))}`);
  if (typeof a.photos === 'number')
    parts.push(
      `${a.photos} ${a.photos === 1 ? 'photo' : 'photos'}${a.unmatched ? ' left unmatched' : ''}` +
        (typeof a.locationId === 'string' && !('paused' in a) ? ` at ${place(a.locationId)}` : ''),
    );
  if (changedBetween('unlocked'))
    parts.push(
      `Unlocked photos: ${arrow(typeof b.unlocked === 'number' ? String(b.unlocked) : null, String(a.unlocked))}`,
    );
  if (typeof a.count === 'number') parts.push(`${a.count} ${a.count === 1 ? 'photo' : 'photos'}`);
  if (changedBetween('version') && typeof a.version === 'number')
    parts.push(`Season version ${arrow(typeof b.version === 'number' ? String(b.version) : null, String(a.version))}`);
  if (typeof a.photoId === 'string' && a.bookingId) parts.push('Photo given to this booking');
  for (const [key, value] of Object.entries(a)) {
    if (HANDLED.has(key)) continue;
    if (key.endsWith('Cents') && typeof value === 'number') {
      const label = key === 'refundCents' ? 'Refund' : humanise(key.replace(/Cents$/, ''));
      parts.push(`${label}: ${arrow(typeof b[key] === 'number' ? formatAud(b[key]) : null, formatAud(value))}`);
    } else if (isInstant(value)) {
      parts.push(`${humanise(key.replace(/At$/, ''))}: ${formatSessionTime(value, zone)}`);
    } else if (['string', 'number', 'boolean'].includes(typeof value) && changedBetween(key)) {
      const say = (v: unknown) => (typeof v === 'boolean' ? (v ? 'Yes' : 'No') : String(v));
      parts.push(`${humanise(key)}: ${arrow(key in b ? say(b[key]) : null, say(value))}`);
    }
  }
  return parts;
}
