import { formatSessionTime, localDateOf } from '@kringle/contracts/dates';
import { CHECK_IN_UNDO_SECONDS, type CheckInBody, type StaffAction, type StaffBooking } from '@kringle/contracts/staff';
import type { Tx } from '../../db/client';
import { errors, notFound } from '../../lib/errors';
import type { AuthClaims } from '../accounts/id-tokens';
import { staffActor } from '../audit-trail/audit-entries.repository';
import {
  checkIn as checkInTransition,
  markNoShow as markNoShowTransition,
  undoCheckIn,
  undoNoShow,
} from '../booking-lifecycle/booking-change-transitions';
import { bookingOfCheckInCode } from '../check-in/check-in-codes';
import { bookingIdByReference, lockAttendance, recordAction, staffBookingView } from './staff.repository';
import { getStaffBooking, locationOr404, type Deps, type LocationGuard } from './staff.service';

// The set's attendance actions (issue 19): check-in, no-show and their undo, each recorded for the run sheet.

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
