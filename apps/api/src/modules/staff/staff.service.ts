import { addDays, localDateOf, zonedToInstant } from '@kringle/contracts/dates';
import {
  PAID_WITH,
  type Attendance,
  type PaidTotal,
  type PaidWith,
  type RunSheet,
  type RunSheetSlot,
  type StaffBooking,
  type StaffCatalogue,
} from '@kringle/contracts/staff';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/errors';
import { policyOf } from '../booking-lifecycle/booking-policy';
import { toBooking } from '../bookings/bookings.service';
import {
  findLocation,
  listAddOns,
  listLocations,
  listPackages,
  type LocationRow,
} from '../catalogue/catalogue.repository';
import {
  actionsOf,
  slotsOfDay,
  staffBookingsOfDay,
  staffBookingView,
  type ActionRow,
  type RunSheetSlotRow,
  type StaffBookingView,
} from './staff.repository';

export type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'log'>;

/**
 * Refuses a location the staff caller may not touch (403 LOCATION_FORBIDDEN): the routes pass
 * `(id) => assertStaffLocation(request, id)`, called once the booking's location is known (after
 * its 404, before any change).
 */
export type LocationGuard = (locationId: string) => void;

export function attendanceOf(v: Pick<StaffBookingView, 'status' | 'checkedInAt' | 'noShowAt'>): Attendance {
  if (v.status === 'cancelled') return 'cancelled';
  if (v.checkedInAt) return 'checked_in';
  return v.noShowAt ? 'no_show' : 'confirmed';
}

/** Staff never see the check-in code: it is the family's to show. */
export function toStaffBooking(deps: Deps, v: StaffBookingView, actions: ActionRow[], now: Date): StaffBooking {
  return {
    ...toBooking(v, now, policyOf(deps.config), null),
    customer: v.customer,
    checkedInAt: v.checkedInAt?.toISOString() ?? null,
    noShowAt: v.noShowAt?.toISOString() ?? null,
    attendance: attendanceOf(v),
    paidWith: v.paidWith,
    actions: actions
      .filter((a) => a.bookingId === v.id)
      .map((a) => ({ at: a.at.toISOString(), staffEmail: a.staffEmail, action: a.action })),
  };
}

export async function getStaffBooking(deps: Deps, id: string): Promise<StaffBooking> {
  const view = await staffBookingView(deps.db, id);
  if (!view) throw notFound('That booking');
  return toStaffBooking(deps, view, await actionsOf(deps.db, [id]), deps.clock.now());
}

export async function locationOr404(deps: Deps, id: string): Promise<LocationRow> {
  const location = await findLocation(deps.db, id);
  if (!location) throw notFound('That location');
  return location;
}

/** The location's day as instants: `date` in its zone, today there by default. */
export function dayOf(location: Pick<LocationRow, 'timezone'>, date: string | undefined, now: Date) {
  const day = date ?? localDateOf(now, location.timezone);
  return {
    date: day,
    from: zonedToInstant(day, '00:00', location.timezone),
    to: zonedToInstant(addDays(day, 1), '00:00', location.timezone),
  };
}

export function slotState(s: RunSheetSlotRow, now: Date): RunSheetSlot['state'] {
  if (s.kind === 'break') return 'break';
  if (s.booked) return 'booked';
  if (s.held) return 'held';
  return s.blocked || s.endAt <= now ? 'closed' : 'free';
}

export interface DayData {
  location: LocationRow;
  date: string;
  /** The instant the day was read at: slot states are as of then. */
  now: Date;
  slots: RunSheetSlotRow[];
  bookings: StaffBooking[];
}

/** Every session and break of a location's day with its bookings (the run sheet and its CSV). */
export async function dayData(deps: Deps, locationId: string, date: string | undefined): Promise<DayData> {
  const now = deps.clock.now();
  const location = await locationOr404(deps, locationId);
  const day = dayOf(location, date, now);
  const [slots, views] = await Promise.all([
    slotsOfDay(deps.db, { locationId, from: day.from, to: day.to, now }),
    staffBookingsOfDay(deps.db, locationId, day.from, day.to),
  ]);
  const actions = await actionsOf(
    deps.db,
    views.map((v) => v.id),
  );
  return { location, date: day.date, now, slots, bookings: views.map((v) => toStaffBooking(deps, v, actions, now)) };
}

export async function runSheet(
  deps: Deps,
  locationId: string,
  date: string | undefined,
  filter: 'all' | 'break',
): Promise<RunSheet> {
  const now = deps.clock.now();
  const all = await dayData(deps, locationId, date);
  const slots = filter === 'break' ? all.slots.filter((s) => s.kind === 'break') : all.slots;
  const items = slots.flatMap((s): RunSheet['items'] => {
    const slot: RunSheetSlot = {
      id: s.id,
      kind: s.kind,
      startAt: s.startAt.toISOString(),
      endAt: s.endAt.toISOString(),
      slotType: { id: s.slotTypeId, slug: s.slotTypeSlug, name: s.slotTypeName, allowsPets: s.slotTypeAllowsPets },
      state: slotState(s, now),
    };
    const here = all.bookings.filter((b) => b.slot.id === s.id);
    // A slot whose bookings were all cancelled gets its own row too: it may be free to sell again.
    const open = here.every((b) => b.attendance === 'cancelled');
    return [...here.map((booking) => ({ slot, booking })), ...(open ? [{ slot, booking: null }] : [])];
  });
  const live = all.bookings.filter((b) => b.attendance !== 'cancelled');
  const count = (a: Attendance) => all.bookings.filter((b) => b.attendance === a).length;
  return {
    location: {
      id: all.location.id,
      name: all.location.name,
      address: all.location.address,
      timezone: all.location.timezone,
    },
    date: all.date,
    timezone: all.location.timezone,
    counts: {
      sessions: all.slots.filter((s) => s.kind === 'session').length,
      breaks: all.slots.filter((s) => s.kind === 'break').length,
      free: all.slots.filter((s) => slotState(s, now) === 'free').length,
      booked: live.length,
      checkedIn: count('checked_in'),
      noShow: count('no_show'),
      cancelled: count('cancelled'),
      people: live.reduce((n, b) => n + (b.details ? b.details.children.length + b.details.adults : 0), 0),
      paidWith: paidTotals(live),
    },
    items,
  };
}

/** The day's live walk-ins by how they were paid: what the till should hold at the end of the day. */
export function paidTotals(bookings: StaffBooking[]): Record<PaidWith, PaidTotal> {
  const totals = Object.fromEntries(PAID_WITH.map((m) => [m, { bookings: 0, amountCents: 0 }])) as Record<
    PaidWith,
    PaidTotal
  >;
  for (const b of bookings) {
    if (b.source !== 'walkin' || !b.paidWith || b.attendance === 'cancelled') continue;
    totals[b.paidWith].bookings += 1;
    totals[b.paidWith].amountCents += b.amountCents;
  }
  return totals;
}

/** The catalogue with only the locations the caller covers (`covers`), so the app offers no other. */
export async function staffCatalogue(deps: Deps, covers: (locationId: string) => boolean): Promise<StaffCatalogue> {
  const [all, packages, addOns] = await Promise.all([
    listLocations(deps.db),
    listPackages(deps.db),
    listAddOns(deps.db),
  ]);
  const locations = all.filter((l) => covers(l.id));
  const product = (p: { id: string; name: string; priceCents: number; maxQuantity: number }) => ({
    id: p.id,
    name: p.name,
    priceCents: p.priceCents,
    maxQuantity: p.maxQuantity,
  });
  return {
    locations: locations.map((l) => ({
      id: l.id,
      name: l.name,
      address: l.address,
      timezone: l.timezone,
      // The staff app asks for the line only where there is one (issue 53 item 17: no 404 on every page).
      queueOpensAt:
        l.salesOpenAt && l.queueOpensMinutesBefore > 0
          ? new Date(l.salesOpenAt.getTime() - l.queueOpensMinutesBefore * 60_000).toISOString()
          : null,
    })),
    packages: packages.map((p) => ({ ...product(p), slotTypeSlugs: p.slotTypeSlugs ?? null })),
    addOns: addOns.map(product),
  };
}
