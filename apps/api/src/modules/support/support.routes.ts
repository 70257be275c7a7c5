import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditCsvQuerySchema, auditListSchema, auditQuerySchema } from '@kringle/contracts/audit';
import { errorBodySchema } from '@kringle/contracts/errors';
import { staffBookingParamsSchema, staffBookingSchema } from '@kringle/contracts/staff';
import {
  familySearchQuerySchema,
  freeSessionsQuerySchema,
  freeSessionsSchema,
  familySearchResultSchema,
  orderParamsSchema,
  supportBookingSchema,
  supportCancelBodySchema,
  supportDetailsBodySchema,
  supportRefundBodySchema,
  supportRefundSchema,
  supportRescheduleBodySchema,
  supportResendBodySchema,
} from '@kringle/contracts/support';
import { authOf } from '../../plugins/auth';
import { rateLimit } from '../../plugins/rate-limit';
import { assertStaffLocation } from '../../plugins/staff-access';
import { auditCsv } from '../audit/audit.csv';
import { auditRows, listAudit } from '../audit/audit.service';
import { getStaffBooking } from '../staff/staff.service';
import {
  cancelForFamily,
  editDetailsForFamily,
  refundForFamily,
  rescheduleForFamily,
  resendConfirmation,
} from './support-actions.service';
import { freeSessionsFor, searchFamilies, supportBooking } from './support-desk.service';

/**
 * The support desk and the audit trail (issue 34, API.md "Staff roles, multi-factor sign-in, audit"; decision 0051).
 */
export async function supportRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const support = { auth: 'staff' as const, staffRoles: ['support'] as const };
  const manager = { auth: 'staff' as const, staffRoles: ['manager'] as const };
  const tags = ['staff'];
  const errors = { 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
  const locationOf = (req: FastifyRequest) => (locationId: string) => assertStaffLocation(req, locationId);
  const acting = (req: FastifyRequest, reason: string) => ({
    staff: authOf(req),
    reason,
    assertLocation: locationOf(req),
  });

  r.get(
    '/staff/families',
    {
      config: support,
      schema: {
        tags,
        summary: 'Find families by part of an e-mail, name, phone or booking reference, or a check-in code',
        description:
          "At most 20 families, each with its latest 10 online bookings at the caller's locations (a booking " +
          'elsewhere is neither shown nor found by its reference or code). Support scoped to some locations finds ' +
          'only families with an online booking at them (decision 0079). A phone matches however it is typed ' +
          '(spaces, +61 or a leading 0). Limited to 60 searches a minute per staff member (429 RATE_LIMITED): the ' +
          'box searches as staff type.',
        querystring: familySearchQuerySchema,
        response: { 200: familySearchResultSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
      preHandler: [
        rateLimit(app, {
          name: 'staff-family-search:user',
          max: 60,
          window: '1 minute',
          key: (req) => req.auth?.userId,
        }),
      ],
    },
    async (req) => searchFamilies(app, req.query.q, req.staffAccess?.locationIds ?? []),
  );
  r.get(
    '/staff/bookings/:id',
    {
      config: { auth: 'staff', staffRoles: ['support', 'set'] },
      schema: {
        tags,
        summary: 'A booking with its orders, refunds, the e-mails sent to the family and its audit trail',
        description: 'Set staff only for their own locations (403 LOCATION_FORBIDDEN).',
        params: staffBookingParamsSchema,
        response: { 200: supportBookingSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (req) => supportBooking(app, req.params.id, locationOf(req)),
  );
  r.get(
    '/staff/bookings/:id/free-sessions',
    {
      config: support,
      schema: {
        tags,
        summary: "Free sessions of a day at the booking's location, to move it onto",
        description:
          'Free now: not booked, blocked or held, not started. A session on a day families wait for is not listed ' +
          '(the waitlist is offered it first).',
        params: staffBookingParamsSchema,
        querystring: freeSessionsQuerySchema,
        response: { 200: freeSessionsSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (req) => freeSessionsFor(app, req.params.id, req.query.date, locationOf(req)),
  );
  r.post(
    '/staff/bookings/:id/reschedule',
    {
      config: support,
      schema: {
        tags,
        summary: 'Move a confirmed booking for the family, with a reason',
        description:
          "May pass the family's reschedule cutoff and limit (the family's count is left as it was), never capacity: " +
          'the session is claimed like any hold, 409 SLOT_UNAVAILABLE when taken. 400 DIFFERENT_LOCATION for another ' +
          "location's session. The family is e-mailed.",
        params: staffBookingParamsSchema,
        body: supportRescheduleBodySchema,
        response: { 200: staffBookingSchema, ...errors },
      },
    },
    async (req) => {
      await rescheduleForFamily(app, req.params.id, req.body.slotId, acting(req, req.body.reason));
      return getStaffBooking(app, req.params.id);
    },
  );
  r.post(
    '/staff/bookings/:id/cancel',
    {
      config: support,
      schema: {
        tags,
        summary: "Cancel a booking for the family with the policy's refund, a full refund or none, with a reason",
        description:
          'full = everything not yet refunded; policy = what the family would get cancelling now. The refund is sent ' +
          'to Stripe after the change is saved. 409 NOT_CANCELLABLE when already cancelled.',
        params: staffBookingParamsSchema,
        body: supportCancelBodySchema,
        response: { 200: staffBookingSchema, ...errors },
      },
    },
    async (req) => {
      await cancelForFamily(app, req.params.id, req.body.refund, acting(req, req.body.reason));
      return getStaffBooking(app, req.params.id);
    },
  );
  r.post(
    '/staff/orders/:id/refunds',
    {
      config: support,
      schema: {
        tags,
        summary: 'Refund part of a paid order, with a reason',
        description:
          'The booking keeps its state. 409 REFUND_TOO_LARGE past what is left (refunds still pending count as ' +
          'gone); 409 NOT_PAID for an unpaid order.',
        params: orderParamsSchema,
        body: supportRefundBodySchema,
        response: { 201: supportRefundSchema, ...errors },
      },
    },
    async (req, reply) =>
      reply
        .code(201)
        .send(await refundForFamily(app, req.params.id, req.body.amountCents, acting(req, req.body.reason))),
  );
  r.post(
    '/staff/bookings/:id/resend',
    {
      config: support,
      schema: {
        tags,
        summary: "Send the booking's confirmation e-mail again",
        description: '202: queued in the outbox. 409 BOOKING_NOT_CONFIRMED for a booking not confirmed.',
        params: staffBookingParamsSchema,
        body: supportResendBodySchema,
        response: { 202: z.object({ message: z.string() }), ...errors },
      },
    },
    async (req, reply) => {
      await resendConfirmation(app, req.params.id, locationOf(req));
      return reply.code(202).send({ message: 'The confirmation is on its way.' });
    },
  );
  r.put(
    '/staff/bookings/:id/details',
    {
      config: support,
      schema: {
        tags,
        summary: 'Change who is coming for the family, with a reason',
        description:
          "The family's own rules (PUT /bookings/{id}/details): pets only on a pet night, the people per photo; " +
          'until the session starts (409 DETAILS_LOCKED). The audit entry keeps the head count only.',
        params: staffBookingParamsSchema,
        body: supportDetailsBodySchema,
        response: { 200: staffBookingSchema, ...errors },
      },
    },
    async (req) => {
      await editDetailsForFamily(app, req.params.id, req.body.details, acting(req, req.body.reason));
      return getStaffBooking(app, req.params.id);
    },
  );
  r.get(
    '/staff/audit',
    {
      config: manager,
      schema: {
        tags,
        summary: 'The audit trail: per booking, family, reference, staff member, per day (from/to), oldest first',
        description:
          '100 entries a page; pass nextCursor as cursor for the next. Filters combine (all must hold): bookingId, ' +
          "actorId, `family` (part of the family's e-mail or name), `reference` (a booking's reference), " +
          '`staffEmail` (part of a staff e-mail: what the member did and the changes to their account), and the days ' +
          "from/to, UTC days or, with `timeZone`, the location's local days. Each entry carries `about` (reference, " +
          'family, location, the sessions and locations it names) for plain words.',
        querystring: auditQuerySchema,
        response: { 200: auditListSchema, 400: errorBodySchema },
      },
    },
    async (req) => listAudit(app, req.query),
  );
  r.get(
    '/staff/audit.csv',
    {
      config: manager,
      schema: {
        tags,
        summary: 'The audit trail as CSV (text/csv), with the same filters and a plain-words column',
        description:
          'Cells starting with = + - @ are prefixed with an apostrophe so spreadsheets never run them. At most ' +
          '50,000 rows.',
        querystring: auditCsvQuerySchema,
        response: { 200: z.any().meta({ description: 'text/csv' }), 400: errorBodySchema },
      },
    },
    async (req, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="audit-${req.query.from ?? 'all'}-${req.query.to ?? 'now'}.csv"`,
        )
        .send(auditCsv(await auditRows(app, req.query))),
  );
}
