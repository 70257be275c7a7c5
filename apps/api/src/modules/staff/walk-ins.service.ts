import { randomUUID } from 'node:crypto';
import { checkDetailsInput, recordAccessConsent } from '../booking-lifecycle/details-input';
import { localDateOf } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';
import { greeting } from '@kringle/contracts/names';
import { PAID_WITH_LABELS, type PaidWith, type StaffBooking, type walkInBodySchema } from '@kringle/contracts/staff';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { isUniqueViolation, type Tx } from '../../db/client';
import { errors, notFound } from '../../lib/errors';
import type { AuthClaims } from '../accounts/id-tokens';
import { bookingSummary } from '../booking-lifecycle/booking-summary.email';
import { newBookingReference } from '../checkout/booking-reference';
import { priceLines } from '../checkout/cart.service';
import { mailLogoUrl, renderEmail } from '../mail/mail-layout';
import { enqueueMail } from '../mail/outbox.repository';
import { bookingDetails } from '../booking-lifecycle/booking-rows.repository';
import { announceTaken } from '../sessions/slot-events.listener';
import { checkIn } from '../booking-lifecycle/booking-change-transitions';
import { sellWalkIn as sellTransition } from '../booking-lifecycle/payment-transitions';
import { staffActor } from '../audit-trail/audit-entries.repository';
import type { LineItem } from '../../db/schema/bookings';
import type { BookingDetails as FamilyDetails } from '@kringle/contracts/booking-details';
import { recordAction, walkInSlot } from './staff.repository';
import { taxInvoiceOf } from './staff-receipt.service';
import { getStaffBooking, type Deps, type LocationGuard } from './staff.service';

type WalkInBody = z.output<typeof walkInBodySchema>;
type WalkInDeps = Deps & Pick<FastifyInstance, 'pool' | 'log' | 'slotState'>;

/**
 * POST /staff/walk-ins: a family at the set buys a free session later today, paid in store. The
 * session is taken by the same conditional UPDATE on the slot row as an online hold, in the
 * transaction that writes the confirmed booking, its paid order and the staff action (and, for a
 * session already running, the family's check-in); a lost race
 * changes nothing and answers 409 SLOT_UNAVAILABLE. Afterwards this process's availability answers
 * and taken-sessions memo learn of it at once, and the other processes' memos by the same
 * announcement as a hold (decision 0014: "taken by" the staff member, who never holds, until the
 * session ends); their availability answers within their 1 s cache.
 */
export async function sellWalkIn(
  deps: WalkInDeps,
  staff: AuthClaims,
  body: WalkInBody,
  guard: LocationGuard,
): Promise<StaffBooking> {
  const now = deps.clock.now();
  const slot = await walkInSlot(deps.db, body.slotId);
  if (!slot) throw notFound('That session');
  guard(slot.locationId);
  if (
    slot.kind !== 'session' ||
    slot.endAt <= now ||
    localDateOf(slot.startAt, slot.timezone) !== localDateOf(now, slot.timezone)
  ) {
    throw errors.slotUnavailable('Walk-ins are sold for sessions later today only. Please choose another time.');
  }
  // Access needs come with the parent's consent, asked at the set (decision 0058).
  const { details, consented } = checkDetailsInput(
    body.details,
    { maxPeople: deps.config.MAX_PEOPLE_PER_PHOTO, allowsPets: slot.allowsPets },
    ['body', 'details'],
  );
  const items = await priceLines(deps.db, slot.id, body);
  const taken = deps.slotState.taken;
  const version = taken.version;
  const id = randomUUID();
  for (let attempt = 0; ; attempt++) {
    const values: WalkInValues = {
      id,
      orderId: randomUUID(),
      reference: newBookingReference(),
      staffUserId: staff.userId,
      slot,
      items,
      amountCents: items.reduce((sum, item) => sum + item.totalCents, 0),
      details,
      firstName: body.firstName,
      lastName: body.lastName,
      email: body.email ?? null,
      paidWith: body.paidWith,
      now,
    };
    try {
      await deps.db.transaction(async (tx) => {
        const ctx = { tx, now, log: deps.log, actor: staffActor(staff) };
        if (
          !(await sellTransition(ctx, walkInBooking(values), {
            userId: values.staffUserId,
            id: values.orderId,
            items: values.items,
            amountCents: values.amountCents,
          }))
        )
          throw errors.slotUnavailable();
        await recordAction(tx, {
          bookingId: id,
          staffUserId: staff.userId,
          staffEmail: staff.email,
          action: 'walk_in',
          at: now,
        });
        if (consented) await recordAccessConsent(tx, { userId: null, bookingId: id, recordedBy: staff.userId, now });
        // A family sold a session already running is standing at the set: checked in with the sale,
        // as POST /staff/check-ins would, so staff have nothing left to tap.
        if (slot.startAt <= now && (await checkIn(ctx, id))) {
          await recordAction(tx, {
            bookingId: id,
            staffUserId: staff.userId,
            staffEmail: staff.email,
            action: 'check_in',
            at: now,
          });
        }
        if (values.email) await enqueueMail(tx, await walkInReceiptMail(deps, tx, values));
      });
      break;
    } catch (err) {
      // A reference already in use (1 in millions): try another. The one-confirmed-booking-per-session
      // index is the last guard behind the slot row: a race it catches is a lost race.
      if (isUniqueViolation(err) && constraintOf(err) === 'bookings_reference_key' && attempt < 3) continue;
      if (isUniqueViolation(err)) throw errors.slotUnavailable();
      throw err;
    }
  }
  deps.slotState.changed({ locationId: slot.locationId });
  taken.remember(slot.id, null, null, now, version);
  announceTaken(deps.slotState, deps.pool, deps.log, {
    slotId: slot.id,
    holderId: staff.userId,
    reservationId: id,
    endsAt: slot.endAt,
  });
  return getStaffBooking(deps, id);
}

interface WalkInValues {
  id: string;
  orderId: string;
  reference: string;
  staffUserId: string;
  slot: { id: string; locationId: string; slotTypeId: string };
  items: LineItem[];
  amountCents: number;
  details: FamilyDetails;
  firstName: string;
  lastName: string;
  email: string | null;
  paidWith: PaidWith;
  now: Date;
}

/**
 * A walk-in family has no account: the booking belongs to the staff member who sold it, the family's name and e-mail
 * live on it.
 */
const walkInBooking = (v: WalkInValues) => ({
  id: v.id,
  reference: v.reference,
  userId: v.staffUserId,
  locationId: v.slot.locationId,
  slotId: v.slot.id,
  slotTypeId: v.slot.slotTypeId,
  items: v.items,
  amountCents: v.amountCents,
  details: v.details,
  detailsUpdatedAt: v.now,
  walkinFirstName: v.firstName,
  walkinLastName: v.lastName,
  walkinEmail: v.email,
  walkinPaidWith: v.paidWith,
});

const constraintOf = (err: unknown) => {
  const e = err as { constraint?: string; cause?: { constraint?: string } };
  return e.constraint ?? e.cause?.constraint;
};

/** The family's receipt: what they bought, where and when, with the tax invoice attached. */
async function walkInReceiptMail(deps: Deps, tx: Tx, v: WalkInValues) {
  const found = await bookingDetails(tx, v.id);
  // The booking belongs to the staff member who sold it; the mail goes to the family.
  const d = { ...found, email: v.email!, firstName: v.firstName };
  const invoice = (await taxInvoiceOf(deps, tx, v.id, {
    firstName: v.firstName,
    lastName: v.lastName,
    email: v.email,
  }))!;
  return {
    to: d.email,
    subject: `Your receipt: ${d.slotTypeName} (${v.reference})`,
    ...renderEmail({
      brandName: deps.config.BRAND_NAME,
      logoUrl: mailLogoUrl(deps.config.PUBLIC_URL),
      title: 'Thank you for visiting Santa',
      intro: [
        greeting(v.firstName),
        `You are booked for ${d.slotTypeName}, paid in store (${PAID_WITH_LABELS[v.paidWith]}). Your tax invoice is ` +
          `attached.`,
      ],
      details: [
        ...bookingSummary(d),
        {
          label: 'Packages',
          value: v.items.map((i) => `${i.quantity} × ${i.name}: ${formatAud(i.totalCents)}`).join('; '),
        },
        { label: 'Total paid', value: `${formatAud(v.amountCents)} (includes GST)` },
      ],
    }),
    attachments: [
      { filename: invoice.filename, contentType: 'application/pdf', content: invoice.pdf.toString('base64') },
    ],
  };
}
