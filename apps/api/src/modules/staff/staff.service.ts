import { addDays, formatSessionTime, localDateOf, zonedToInstant } from '@kringle/contracts/dates';
import {
  CHECK_IN_UNDO_SECONDS,
  PAID_WITH,
  type Attendance,
  type PaidTotal,
  type PaidWith,
  type CheckInBody,
  type RunSheet,
  type RunSheetSlot,
  type StaffAction,
  type StaffBooking,
  type StaffCatalogue,
} from '@kringle/contracts/staff';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client';
import { errors, notFound } from '../../lib/errors';
import type { AuthClaims } from '../accounts/id-tokens';
import { policyOf } from '../booking-lifecycle/booking-policy';
import { toBooking } from '../bookings/bookings.service';
import {
  findLocation,
  listAddOns,
  listLocations,
  listPackages,
  type LocationRow,
} from '../catalogue/catalogue.repository';
import { bookingOfCheckInCode } from '../check-in/check-in-codes';
import { staffActor } from '../audit-trail/audit-entries.repository';
import {
  checkIn as checkInTransition,
  markNoShow as markNoShowTransition,
  undoCheckIn,
  undoNoShow,
} from '../booking-lifecycle/booking-change-transitions';
import {
  actionsOf,
  bookingIdByReference,
  lockAttendance,
  recordAction,
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

async function locationOr404(deps: Deps, id: string): Promise<LocationRow> {
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

/**
 * POST /staff/check-ins: by the QR code's contents or the typed reference. Harmless twice (200
 * with the first check-in's time); refused for a cancelled or unpaid booking, and for a booking at
 * another location or on another day there (named, so the family can be sent the right way).
 */
export async function checkIn(deps: Deps, staff: AuthClaims, body: CheckInBody): Promise<StaffBooking> {
  const location = await locationOr404(deps, body.locationId);
  const id =
    'code' in body
      ? (await bookingOfCheckInCode(deps.db, body.code))?.id
      : await bookingIdByReference(deps.db, body.reference);
  if (!id) throw notFound('That booking');
  const view = await staffBookingView(deps.db, id);
  if (!view) throw notFound('That booking');
  if (view.status === 'cancelled') throw errors.bookingCancelled(view.reference);
  if (view.status !== 'completed') throw errors.bookingNotConfirmed(view.reference);
  const now = deps.clock.now();
  if (view.locationId !== location.id || localDateOf(view.startAt, view.timezone) !== localDateOf(now, view.timezone)) {
    throw errors.wrongLocationOrDay({ ...view, when: formatSessionTime(view.startAt, view.timezone) });
  }
  await deps.db.transaction(async (tx) => {
    if (await checkInTransition({ tx, now, actor: staffActor(staff) }, id))
      await record(tx, staff, id, 'check_in', now);
  });
  const after = await getStaffBooking(deps, id);
  // Cancelled between the checks and the update: the update changed nothing.
  if (after.attendance === 'cancelled') throw errors.bookingCancelled(after.reference);
  return after;
}

const record = (tx: Tx, staff: AuthClaims, bookingId: string, action: StaffAction, at: Date) =>
  recordAction(tx, { bookingId, staffUserId: staff.userId, staffEmail: staff.email, action, at });

/** POST /staff/bookings/{id}/no-show: once the session has started; harmless twice. */
export async function markNoShow(
  deps: Deps,
  staff: AuthClaims,
  id: string,
  guard: LocationGuard,
): Promise<StaffBooking> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const b = await lockAttendance(tx, id);
    if (!b) throw notFound('That booking');
    const { reference, locationId } = (await staffBookingView(tx, id))!;
    guard(locationId);
    if (b.status === 'cancelled') throw errors.bookingCancelled(reference);
    if (b.status !== 'completed') throw errors.bookingNotConfirmed(reference);
    if (b.startAt > now) throw errors.sessionNotStarted();
    if (b.checkedInAt) throw errors.alreadyCheckedIn();
    if (b.noShowAt) return;
    await markNoShowTransition({ tx, now, log: deps.log, actor: staffActor(staff) }, b);
    await record(tx, staff, id, 'no_show', now);
  });
  return getStaffBooking(deps, id);
}

/**
 * POST /staff/bookings/{id}/undo: takes back a check-in made in the last CHECK_IN_UNDO_SECONDS
 * (the wrong family tapped), or a no-show at any time (the family turned up late).
 */
export async function undoAttendance(
  deps: Deps,
  staff: AuthClaims,
  id: string,
  guard: LocationGuard,
): Promise<StaffBooking> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const b = await lockAttendance(tx, id);
    if (!b) throw notFound('That booking');
    guard((await staffBookingView(tx, id))!.locationId);
    if (b.checkedInAt) {
      if (now.getTime() - b.checkedInAt.getTime() > CHECK_IN_UNDO_SECONDS * 1000) {
        throw errors.undoWindowClosed(CHECK_IN_UNDO_SECONDS);
      }
      await undoCheckIn({ tx, now, log: deps.log, actor: staffActor(staff) }, b);
      await record(tx, staff, id, 'undo_check_in', now);
    } else if (b.noShowAt) {
      await undoNoShow({ tx, now, log: deps.log, actor: staffActor(staff) }, b);
      await record(tx, staff, id, 'undo_no_show', now);
    } else {
      throw errors.nothingToUndo();
    }
  });
  return getStaffBooking(deps, id);
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
