import type { BookingDetails, BookingDetailsBody } from '@kringle/contracts/booking-details';
import type { Booking } from '@kringle/contracts/bookings';
import type { FastifyInstance } from 'fastify';
import { errors, notFound } from '../../lib/errors';
import { familyActor, insertAuditEntry } from '../audit-trail/audit-entries.repository';
import { saveDetails } from '../booking-lifecycle/booking-details.repository';
import { checkDetailsInput, recordAccessConsent } from '../booking-lifecycle/details-input';
import { findBookingView } from './bookings.repository';
import { getBooking } from './bookings.service';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config'>;

const DETAIL_FIELDS = [
  'children',
  'adults',
  'pets',
  'accessNeeds',
  'accessNote',
  'noteForSanta',
] as const satisfies readonly (keyof BookingDetails)[];
const peopleOf = (d: BookingDetails | null) => (d ? d.children.length + d.adults : null);

/**
 * What the audit trail keeps of a family's edit (issue 48 item 5): which parts changed and the head
 * count, never the children's names, ages or needs (deleted after the season; the trail is kept),
 * as the support desk's edit does (booking-change-transitions.ts staffEditDetails).
 */
export function detailsChange(
  before: BookingDetails | null,
  after: BookingDetails,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const changed = DETAIL_FIELDS.filter((k) => JSON.stringify(before?.[k] ?? null) !== JSON.stringify(after[k] ?? null));
  return { before: { people: peopleOf(before), changed }, after: { people: peopleOf(after), changed } };
}

/**
 * PUT /bookings/{id}/details: who is coming, editable by the family until the session starts.
 * Unpaid bookings take them too: the web app sends them right after checkoutOrder and before
 * showing Payment (decision 0021). The shape is checked by the route's schema; the rules
 * that depend on the session type (pets) and on config (people per photo) are checked here, with
 * the same contract function the web form uses; access needs come with the parent's consent,
 * recorded in the same transaction (decision 0058).
 */
export async function updateBookingDetails(
  deps: Deps,
  userId: string,
  bookingId: string,
  body: BookingDetailsBody,
): Promise<Booking> {
  const view = await findBookingView(deps.db, bookingId, userId);
  if (!view) throw notFound('That booking');
  const now = deps.clock.now();
  if (view.status === 'cancelled')
    throw errors.detailsLocked('This booking is cancelled, so its details can no longer change.');
  if (view.startAt <= now)
    throw errors.detailsLocked(
      'The session has started, so who is coming can no longer change. Please tell Santa’s team at the set.',
    );
  const { details, consented } = checkDetailsInput(
    body,
    { maxPeople: deps.config.MAX_PEOPLE_PER_PHOTO, allowsPets: view.allowsPets },
    ['body'],
  );
  await deps.db.transaction(async (tx) => {
    // Conditional on the state just checked, so a cancel or the session's start in between wins.
    if (!(await saveDetails(tx, { bookingId, userId, details, now }))) throw errors.detailsLocked();
    if (consented) await recordAccessConsent(tx, { userId, bookingId, recordedBy: null, now });
    await insertAuditEntry(tx, {
      at: now,
      actor: familyActor(userId),
      action: 'family.booking_details_changed',
      bookingId,
      orderId: null,
      reason: null,
      ...detailsChange(view.details, details),
    });
  });
  return getBooking(deps, userId, bookingId);
}
