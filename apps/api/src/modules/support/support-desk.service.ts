import type { FamilySearchResult, FreeSessions, SupportBooking } from '@kringle/contracts/support';
import { notFound } from '../../lib/errors';
import { listAuditEntries } from '../audit/audit-list.repository';
import { refundsOfBooking } from '../order-payments/refunds.repository';
import { bookingOfCheckInCode } from '../check-in/check-in-codes';
import { ordersOfBooking } from '../orders/orders.repository';
import { moneyOnOrders } from '../order-payments/money-left';
import { toOrder } from '../orders/orders.service';
import { aboutOf } from '../audit/audit-about.repository';
import { disputesOfBooking } from '../disputes/disputes.repository';
import { toDispute } from '../disputes/disputes.service';
import { toAuditEntry } from '../audit/audit.service';
import { actionsOf, slotsOfDay, staffBookingView, staffBookingViewsOf } from '../staff/staff.repository';
import { dayOf, slotState, toStaffBooking, type Deps } from '../staff/staff.service';
import { findGallery } from '../photos/photos.repository';
import { bookingIdsOfFamilies, emailsTo, searchFamilies as findFamilies } from './support.repository';

/** The support desk's reads (issue 34, decision 0051). */
export const MAX_FAMILIES = 20;
const BOOKINGS_PER_FAMILY = 10;
const EMAILS_SHOWN = 50;
const AUDIT_SHOWN = 500;

/** Says whether the caller may see a booking at this location (403 LOCATION_FORBIDDEN otherwise). */
export type LocationCheck = (locationId: string) => void;

/**
 * GET /staff/families?q=: part of an e-mail, name, phone or reference, or a whole check-in code.
 * A family is brand-wide; the bookings shown are those at the caller's locations (empty = all).
 */
export async function searchFamilies(deps: Deps, q: string, locationIds: string[]): Promise<FamilySearchResult> {
  const coded = await bookingOfCheckInCode(deps.db, q);
  const families = await findFamilies(deps.db, q, coded?.id ?? null, MAX_FAMILIES, locationIds);
  const idsByFamily = await bookingIdsOfFamilies(
    deps.db,
    families.map((f) => f.id),
    BOOKINGS_PER_FAMILY,
    locationIds,
  );
  const ids = [...idsByFamily.values()].flat();
  const [views, actions] = await Promise.all([staffBookingViewsOf(deps.db, ids), actionsOf(deps.db, ids)]);
  const now = deps.clock.now();
  const byId = new Map(views.map((v) => [v.id, toStaffBooking(deps, v, actions, now)]));
  return {
    items: families.map((user) => ({
      user,
      bookings: (idsByFamily.get(user.id) ?? []).flatMap((id) => byId.get(id) ?? []),
    })),
  };
}

/** GET /staff/bookings/{id}/free-sessions?date=: where support can move the booking on that day. */
export async function freeSessionsFor(
  deps: Deps,
  id: string,
  date: string,
  assertLocation: LocationCheck,
): Promise<FreeSessions> {
  const view = await staffBookingView(deps.db, id);
  if (!view) throw notFound('That booking');
  assertLocation(view.locationId);
  const now = deps.clock.now();
  const day = dayOf({ timezone: view.timezone }, date, now);
  const slots = await slotsOfDay(deps.db, { locationId: view.locationId, from: day.from, to: day.to, now });
  return {
    items: slots
      .filter((s) => s.kind === 'session' && slotState(s, now) === 'free' && s.startAt > now && s.id !== view.slotId)
      .map((s) => ({
        id: s.id,
        startAt: s.startAt.toISOString(),
        endAt: s.endAt.toISOString(),
        slotTypeName: s.slotTypeName,
      })),
  };
}

/** GET /staff/bookings/{id}: the staff booking with its orders, refunds, e-mails and audit trail. */
export async function supportBooking(deps: Deps, id: string, assertLocation: LocationCheck): Promise<SupportBooking> {
  const view = await staffBookingView(deps.db, id);
  if (!view) throw notFound('That booking');
  assertLocation(view.locationId);
  const [actions, orders, refunds, audit, emails, gallery, disputes] = await Promise.all([
    actionsOf(deps.db, [id]),
    ordersOfBooking(deps.db, id),
    refundsOfBooking(deps.db, id),
    listAuditEntries(deps.db, { bookingId: id, limit: AUDIT_SHOWN }),
    view.customer.email ? emailsTo(deps.db, view.customer.email, EMAILS_SHOWN) : Promise.resolve([]),
    findGallery(deps.db, id),
    disputesOfBooking(deps.db, id),
  ]);
  const about = await aboutOf(deps.db, audit);
  const money = await moneyOnOrders(
    deps.db,
    orders.map((o) => o.id),
  );
  return {
    ...toStaffBooking(deps, view, actions, deps.clock.now()),
    orders: orders.map((o) => toOrder(o, money.get(o.id)?.unsettledCents ?? 0)),
    refunds: refunds.map((r) => ({
      id: r.id,
      orderId: r.orderId,
      amountCents: r.amountCents,
      status: r.status,
      reason: r.reason,
      createdAt: r.createdAt.toISOString(),
    })),
    emails: emails.map((e) => ({
      subject: e.subject,
      status: e.status,
      sentAt: e.sentAt?.toISOString() ?? null,
      createdAt: e.createdAt.toISOString(),
    })),
    audit: audit.map((r) => toAuditEntry(r, about.get(r.id))),
    galleryExpiresAt: gallery && !gallery.deletedAt ? gallery.expiresAt.toISOString() : null,
    disputes: disputes.map(toDispute),
  };
}
