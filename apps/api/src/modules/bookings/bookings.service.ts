import type { Booking, BookingList } from '@kringle/contracts/bookings';
import { CURRENCY } from '@kringle/contracts/money';
import { canCancel, canReschedule, type PolicyRules } from '@kringle/contracts/policy';
import type { FastifyInstance } from 'fastify';
import { errors, notFound } from '../../lib/errors';
import { checkInCodeFor } from '../check-in/check-in-codes';
import { findBookingView, listBookingViews, type Cursor } from './bookings.repository';
import type { BookingView } from '../booking-lifecycle/booking-view.repository';
import { policyOf } from '../booking-lifecycle/booking-policy';
import { refundByPolicy } from '../order-payments/money-left';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config'>;

const PAGE_SIZE = 20;

/** Only a confirmed booking checks in; an unpaid or cancelled one shows no code. */
const codeOf = (deps: Deps, v: BookingView) =>
  v.status === 'completed' ? checkInCodeFor(deps.db, v) : Promise.resolve(null);

export function toBooking(v: BookingView, now: Date, rules: PolicyRules, checkInCode: string | null): Booking {
  const policy = {
    status: v.status,
    startAt: v.startAt,
    amountCents: v.amountCents,
    refundedCents: v.refundedCents,
    rescheduleCount: v.rescheduleCount,
  };
  return {
    id: v.id,
    reference: v.reference,
    status: v.status,
    source: v.source,
    location: { id: v.locationId, name: v.locationName, address: v.address, timezone: v.timezone },
    slot: { id: v.slotId, startAt: v.startAt.toISOString(), endAt: v.endAt.toISOString() },
    slotType: { id: v.slotTypeId, name: v.slotTypeName, allowsPets: v.allowsPets },
    items: v.items,
    amountCents: v.amountCents,
    donationCents: v.donationCents,
    donationTo: v.donationTo,
    creditCents: v.creditCents,
    currency: CURRENCY,
    rescheduleCount: v.rescheduleCount,
    canReschedule: canReschedule(policy, now, rules),
    canCancel: canCancel(policy, now),
    refundableCents: refundByPolicy(policy, v.leftCents, now, rules),
    createdAt: v.createdAt.toISOString(),
    details: v.details,
    checkInCode,
    holdExpiresAt: v.holdExpiresAt?.toISOString() ?? null,
    photoCount: v.photoCount,
    delay: v.delay,
    closure: v.closure && {
      reason: v.closure.reason,
      // An offer past its time is as good as gone: the offers job refunds it within seconds.
      offer:
        v.closure.offer && v.closure.offer.expiresAt > now
          ? {
              ...v.closure.offer,
              startAt: v.closure.offer.startAt.toISOString(),
              expiresAt: v.closure.offer.expiresAt.toISOString(),
              refundCents: v.leftCents,
            }
          : null,
    },
  };
}

export async function getBooking(deps: Deps, userId: string, id: string): Promise<Booking> {
  const view = await findBookingView(deps.db, id, userId);
  if (!view) throw notFound('That booking');
  return toBooking(view, deps.clock.now(), policyOf(deps.config), await codeOf(deps, view));
}

const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');
function decodeCursor(raw: string | undefined): Cursor | null {
  if (!raw) return null;
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString()) as Cursor;
    if (typeof c.startAt === 'string' && !Number.isNaN(Date.parse(c.startAt)) && /^[0-9a-f-]{36}$/.test(c.id)) return c;
  } catch {
    // Falls through to the error below.
  }
  throw errors.validation([{ path: 'querystring.cursor', message: 'Invalid cursor' }], 'That page link is not valid.');
}

export async function listBookings(
  deps: Deps,
  userId: string,
  tab: 'upcoming' | 'past',
  rawCursor?: string,
): Promise<BookingList> {
  const now = deps.clock.now();
  const views = await listBookingViews(deps.db, {
    userId,
    tab,
    now,
    cursor: decodeCursor(rawCursor),
    limit: PAGE_SIZE + 1,
  });
  const page = views.slice(0, PAGE_SIZE);
  const last = page.at(-1);
  const codes = await Promise.all(page.map((v) => codeOf(deps, v)));
  return {
    items: page.map((v, i) => toBooking(v, now, policyOf(deps.config), codes[i] ?? null)),
    nextCursor:
      views.length > PAGE_SIZE && last ? encodeCursor({ startAt: last.startAt.toISOString(), id: last.id }) : null,
  };
}
