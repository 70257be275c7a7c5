import type { Closure, ClosureBody, ClosurePreview, ClosurePreviewBody } from '@kringle/contracts/closures';
import { errors, notFound } from '../../lib/errors';
import type { AuthClaims } from '../accounts/id-tokens';
import { leadCutoffOf } from '../booking-lifecycle/booking-policy';
import { closeSessions } from '../sessions/system-holds.repository';
import { staffActor } from '../audit-trail/audit-entries.repository';
import { enqueueMail } from '../mail/outbox.repository';
import { endEntry } from '../waitlist/waitlist.repository';
import type { Tx } from '../../db/client';
import { remedyOne, settle, type Deps } from './closure-remedies.service';
import { closureWaitlistMail, type ClosureWords } from './closures.emails';
import {
  claimNextBooking,
  findClosure,
  finishIfHandled,
  insertClosure,
  insertClosureBookings,
  outcomesOf,
  setOutcome,
  setSessionCount,
  type ClosureRow,
} from './closures.repository';
import {
  bookingsOn,
  freeSessionsNear,
  instantsOf,
  locationOf,
  lockBookingsOn,
  sessionsIn,
  stillOnClosedSession,
  waitingFor,
  type ClosedSession,
} from './closure-sessions.repository';
import { transactionWithRetry } from '../../db/retry-transaction';

/** Closing sessions when Santa is ill (issue 35, decision 0055): the dry run, the closure, its progress. */
export type LocationCheck = (locationId: string) => void;

const ALTERNATIVES = 10;

async function rangeOf(deps: Deps, body: ClosurePreviewBody, assertLocation: LocationCheck) {
  const location = await locationOf(deps.db, body.locationId);
  if (!location) throw notFound('That location');
  assertLocation(location.id);
  const { fromAt, toAt } = await instantsOf(deps.db, body);
  return { location, fromAt, toAt, slotTypeId: body.slotTypeId ?? null };
}

const isoOf = (s: ClosedSession) => ({ startAt: s.startAt.toISOString(), endAt: s.endAt.toISOString() });

/** POST /staff/closures/preview: what closing would do, changing nothing. */
export async function previewClosure(
  deps: Deps,
  body: ClosurePreviewBody,
  assertLocation: LocationCheck,
): Promise<ClosurePreview> {
  const { location, fromAt, toAt, slotTypeId } = await rangeOf(deps, body, assertLocation);
  const sessions = await sessionsIn(deps.db, location.id, fromAt, toAt, slotTypeId);
  const bookings = await bookingsOn(
    deps.db,
    sessions.map((s) => s.slotId),
  );
  const now = deps.clock.now();
  const inRange = new Set(sessions.map((s) => s.slotId));
  const free = await freeSessionsNear(deps.db, {
    locationId: location.id,
    slotTypeIds: [...new Set(sessions.map((s) => s.slotTypeId))],
    near: fromAt,
    now,
    leadCutoff: leadCutoffOf(deps.config, now),
    limit: ALTERNATIVES + inRange.size,
  });
  return {
    sessions: sessions.map((s) => ({
      slotId: s.slotId,
      slotTypeId: s.slotTypeId,
      slotTypeName: s.slotTypeName,
      ...isoOf(s),
      closed: s.blocked,
    })),
    bookings,
    refundTotalCents: bookings.reduce((sum, b) => sum + b.paidCents, 0),
    creditBonusPercent: deps.config.CLOSURE_CREDIT_BONUS_PERCENT,
    alternatives: free
      .filter((f) => !inRange.has(f.slotId))
      .slice(0, ALTERNATIVES)
      .map((f) => ({
        slotId: f.slotId,
        locationId: f.locationId,
        locationName: f.locationName,
        slotTypeName: f.slotTypeName,
        startAt: f.startAt.toISOString(),
      })),
  };
}

/**
 * POST /staff/closures: the sessions stop selling, their live holds end and the families waiting
 * for their days are told, all in one transaction with the closure and one row per booking to
 * remedy; the closures job does the rest. The same Idempotency-Key from the same manager answers
 * the same closure and changes nothing more.
 */
export async function startClosure(
  deps: Deps,
  body: ClosureBody,
  staff: AuthClaims,
  idempotencyKey: string | undefined,
  assertLocation: LocationCheck,
): Promise<{ id: string }> {
  const { location, fromAt, toAt, slotTypeId } = await rangeOf(deps, body as ClosurePreviewBody, assertLocation);
  if (body.confirm.trim() !== location.name) throw errors.closureNotConfirmed(location.name);
  const now = deps.clock.now();
  const result = await transactionWithRetry(deps.db, async (tx) => {
    const values = {
      locationId: location.id,
      slotTypeId,
      fromAt,
      toAt,
      reason: body.reason,
      message: body.message ?? '',
      remedy: body.remedy,
      createdBy: staff.userId,
      idempotencyKey: idempotencyKey ?? null,
      createdAt: now,
    };
    const { row, created } = await insertClosure(tx, values);
    if (!created) {
      // Stripe's rule (issue 48): the same key with other parameters is a mistake, not a retry.
      if (!sameClosure(row, values)) throw errors.idempotencyMismatch();
      return { id: row.id, slotIds: [] as string[] };
    }
    const sessions = await sessionsIn(tx, location.id, fromAt, toAt, slotTypeId);
    const slotIds = sessions.map((s) => s.slotId);
    // The bookings as they are once locked (issue 48): a family's move either committed before
    // (its booking is no longer on these sessions) or waits and then finds its session closed.
    await lockBookingsOn(tx, slotIds);
    await closeSessions(tx, slotIds, { actor: staffActor(staff), at: now, reason: body.reason });
    await insertClosureBookings(
      tx,
      row.id,
      (await bookingsOn(tx, slotIds)).map((b) => b.bookingId),
    );
    await setSessionCount(tx, row.id, slotIds.length);
    await tellWaitingFamilies(deps, tx, location, slotIds, { reason: body.reason, message: body.message ?? '' });
    return { id: row.id, slotIds };
  });
  if (result.slotIds.length) deps.slotState.changed({ locationId: location.id, freed: result.slotIds });
  return { id: result.id };
}

/** What a retry must repeat exactly: the range, the type, the remedy and the words the families read. */
function sameClosure(
  row: ClosureRow,
  values: Pick<ClosureRow, 'locationId' | 'slotTypeId' | 'fromAt' | 'toAt' | 'reason' | 'message' | 'remedy'>,
): boolean {
  return (
    row.locationId === values.locationId &&
    row.slotTypeId === values.slotTypeId &&
    row.fromAt.getTime() === values.fromAt.getTime() &&
    row.toAt.getTime() === values.toAt.getTime() &&
    row.reason === values.reason &&
    row.message === values.message &&
    row.remedy === values.remedy
  );
}

async function tellWaitingFamilies(
  deps: Deps,
  tx: Tx,
  location: { id: string; name: string },
  slotIds: string[],
  w: ClosureWords,
): Promise<void> {
  const now = deps.clock.now();
  for (const f of await waitingFor(tx, location.id, slotIds)) {
    if (f.dayGone) await endEntry(tx, f.entryId, 'ended', now);
    await enqueueMail(
      tx,
      closureWaitlistMail(
        f,
        w,
        { locationName: location.name, slotTypeName: f.slotTypeName, date: f.date, ended: f.dayGone },
        deps.config.BRAND_NAME,
        deps.config.PUBLIC_URL,
      ),
    );
  }
}

/** GET /staff/closures/{id}: progress and the outcome of each booking. */
export async function getClosure(deps: Deps, id: string, assertLocation: LocationCheck): Promise<Closure> {
  const closure = await findClosure(deps.db, id);
  if (!closure) throw notFound('That closure');
  assertLocation(closure.locationId);
  const outcomes = await outcomesOf(deps.db, id);
  return {
    id,
    status: closure.status,
    locationId: closure.locationId,
    reason: closure.reason,
    remedy: closure.remedy,
    sessions: closure.sessions,
    total: outcomes.length,
    done: outcomes.filter((o) => o.outcome !== null).length,
    outcomes: outcomes.map((o) => ({
      bookingId: o.bookingId,
      reference: o.reference,
      outcome: o.outcome,
      detail: o.detail,
    })),
  };
}

/**
 * The job's pass over one closure: claim a booking, remedy it, commit, send its refund; again
 * until none is left. Safe with any number of workers (the claim skips locked rows) and after a
 * crash (an unclaimed row is still there; a claimed one committed its outcome with its change).
 */
export async function runClosure(deps: Deps, closureId: string): Promise<number> {
  const closure = await findClosure(deps.db, closureId);
  if (!closure || closure.status !== 'running') return 0;
  let handled = 0;
  for (;;) {
    const step = await transactionWithRetry(deps.db, async (tx) => {
      const row = await claimNextBooking(tx, closureId);
      if (!row) return null;
      // Moved off the closed sessions since (a staff move, an accepted offer): nothing to remedy.
      if (!(await stillOnClosedSession(tx, row.bookingId))) {
        await setOutcome(tx, row.id, deps.clock.now(), {
          outcome: 'failed',
          detail: 'The booking had already moved to an open session.',
        });
        return { refund: undefined, changed: [] };
      }
      return remedyOne(deps, tx, row, closure);
    });
    if (!step) break;
    handled += 1;
    await settle(deps, step);
  }
  await finishIfHandled(deps.db, closureId, deps.clock.now());
  return handled;
}
