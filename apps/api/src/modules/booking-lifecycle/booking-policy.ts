import { rescheduleDeadline, type PolicyRules } from '@kringle/contracts/policy';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config/config';
import type { DbOrTx } from '../../db/client';
import { bookings } from '../../db/schema/bookings';
import { errors, notFound } from '../../lib/errors';
import { policyInForce } from '../policy/policy.service';
import { slotStart } from './booking-rows.repository';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config'>;

/** The policy numbers in force (config), as the contracts' pure rules take them. */
export const policyOf = (config: Config): PolicyRules => {
  const { rescheduleCutoffHours, rescheduleLimit, refundCutoffHours } = policyInForce(config);
  return { rescheduleCutoffHours, rescheduleLimit, refundCutoffHours };
};

/** Sessions starting before this instant can no longer be held or booked (LEAD_TIME_MINUTES). */
export const leadCutoffOf = (config: Pick<Config, 'LEAD_TIME_MINUTES'>, now: Date): Date =>
  new Date(now.getTime() + config.LEAD_TIME_MINUTES * 60_000);

/** The rules a reschedule must pass, checked when the new session is held and again when the booking moves. */
export function assertReschedulable(
  deps: Pick<Deps, 'config'>,
  booking: { status: string; rescheduleCount: number; locationId: string },
  startAt: Date,
  newLocationId: string,
  now: Date,
): void {
  const rules = policyOf(deps.config);
  if (booking.status !== 'completed') throw errors.notMovable();
  if (now >= rescheduleDeadline(startAt, rules)) {
    throw errors.rescheduleWindowClosed(rules.rescheduleCutoffHours);
  }
  if (booking.rescheduleCount >= rules.rescheduleLimit) {
    throw errors.rescheduleLimit(rules.rescheduleLimit);
  }
  if (newLocationId !== booking.locationId) throw errors.differentLocation();
}

/** For POST /bookings/reservation with a bookingId: the booking must be the caller's and movable there. */
export async function assertCanHoldForReschedule(
  deps: Deps,
  db: DbOrTx,
  userId: string,
  bookingId: string,
  newLocationId: string,
): Promise<void> {
  const [booking] = await db.select().from(bookings).where(eq(bookings.id, bookingId));
  if (!booking || booking.userId !== userId) throw notFound('That booking');
  assertReschedulable(deps, booking, await slotStart(db, booking.slotId), newLocationId, deps.clock.now());
}
