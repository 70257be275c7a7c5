import { bookingDetailsSchemaFor, type BookingDetails as FamilyDetails } from '@kringle/contracts/booking-details';
import type { Booking } from '@kringle/contracts/bookings';
import type { FastifyInstance } from 'fastify';
import { errors, notFound } from '../../lib/errors';
import { saveDetails } from '../booking-lifecycle/booking-details.repository';
import { findBookingView } from './bookings.repository';
import { getBooking } from './bookings.service';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config'>;

/**
 * PUT /bookings/{id}/details: who is coming, editable by the family until the session starts.
 * Unpaid bookings take them too: the web app sends them right after checkoutOrder and before
 * showing Payment (decision 0021). The shape is checked by the route's schema; the rules
 * that depend on the session type (pets) and on config (people per photo) are checked here, with
 * the same contract function the web form uses.
 */
export async function updateBookingDetails(deps: Deps, userId: string, bookingId: string, body: FamilyDetails): Promise<Booking> {
  const view = await findBookingView(deps.db, bookingId, userId);
  if (!view) throw notFound('That booking');
  const now = deps.clock.now();
  if (view.status === 'cancelled') throw errors.detailsLocked('This booking is cancelled, so its details can no longer change.');
  if (view.startAt <= now) throw errors.detailsLocked('The session has started, so who is coming can no longer change. Please tell Santa’s team at the set.');
  const parsed = bookingDetailsSchemaFor({ maxPeople: deps.config.MAX_PEOPLE_PER_PHOTO, allowsPets: view.allowsPets }).safeParse(body);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ path: ['body', ...i.path.map(String)].join('.'), message: i.message }));
    throw errors.validation(details, details[0]?.message);
  }
  // Conditional on the state just checked, so a cancel or the session's start in between wins.
  if (!(await saveDetails(deps.db, { bookingId, userId, details: parsed.data, now }))) throw errors.detailsLocked();
  return getBooking(deps, userId, bookingId);
}
