import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import {
  checkInBodySchema,
  runSheetCsvQuerySchema,
  runSheetQuerySchema,
  runSheetSchema,
  staffBookingParamsSchema,
  staffBookingSchema,
  staffCatalogueSchema,
  walkInBodySchema,
} from '@kringle/contracts/staff';
import { authOf } from '../../plugins/auth';
import { assertStaffLocation, staffCovers, type StaffRole } from '../../plugins/staff-access';
import { runSheetCsv } from './run-sheet.csv';
import { checkIn, markNoShow, undoAttendance } from './attendance.service';
import { dayData, runSheet, staffCatalogue } from './staff.service';
import { staffReceipt } from './staff-receipt.service';
import { sellWalkIn } from './walk-ins.service';

/**
 * The staff app's API (issue 19, API.md "Staff"): a token with the `dashboard_user` claim; a
 * customer gets 403 STAFF_ONLY. The day at a location is the `set` role's (decision 0050);
 * `support` may read it too (a family on the phone asks about today), but changes nothing here.
 */
export async function staffRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const reads = { auth: 'staff' as const, staffRoles: ['set', 'support'] as const satisfies readonly StaffRole[] };
  const setWork = { auth: 'staff' as const, staffRoles: ['set'] as const satisfies readonly StaffRole[] };
  const guard = (req: FastifyRequest) => (locationId: string) => assertStaffLocation(req, locationId);
  const tags = ['staff'];
  const errors = { 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

  r.get(
    '/staff/catalogue',
    {
      config: reads,
      schema: {
        tags,
        summary: 'Locations, packages and add-ons, for the staff app (the customer catalogue routes refuse staff)',
        response: { 200: staffCatalogueSchema },
      },
    },
    async (req) => staffCatalogue(app, (id) => staffCovers(req.staffAccess!, id)),
  );
  r.get(
    '/staff/run-sheet',
    {
      config: reads,
      schema: {
        tags,
        summary: "A location's day: every session and break in order, with its bookings and the counts",
        description:
          'A session with several bookings (one cancelled, one rebooked) has an item for each; a session nobody ' +
          'booked has one item with `booking: null`.',
        querystring: runSheetQuerySchema,
        response: { 200: runSheetSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (req) => {
      assertStaffLocation(req, req.query.locationId);
      return runSheet(app, req.query.locationId, req.query.date, req.query.filter);
    },
  );
  r.get(
    '/staff/run-sheet.csv',
    {
      config: reads,
      schema: {
        tags,
        summary: 'The day as CSV (text/csv): a row per booking and per free session or break',
        description: 'Cells starting with = + - @ are prefixed with an apostrophe so spreadsheets never run them.',
        querystring: runSheetCsvQuerySchema,
        response: { 200: z.any().meta({ description: 'text/csv' }), 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (req, reply) => {
      assertStaffLocation(req, req.query.locationId);
      const day = await dayData(app, req.query.locationId, req.query.date);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="run-sheet-${day.location.slug}-${day.date}.csv"`)
        .send(runSheetCsv(day));
    },
  );
  r.post(
    '/staff/check-ins',
    {
      config: setWork,
      schema: {
        tags,
        summary: 'Check a family in by the QR code or the booking reference (harmless twice)',
        description:
          '404 for an unknown code or reference; 409 BOOKING_CANCELLED; 409 BOOKING_NOT_CONFIRMED (never paid); 409 ' +
          'WRONG_LOCATION_OR_DAY when the booking is at another location or on another day there (the message names ' +
          'its place and local time).',
        body: checkInBodySchema,
        response: { 200: staffBookingSchema, ...errors },
      },
    },
    async (req) => {
      assertStaffLocation(req, req.body.locationId);
      return checkIn(app, authOf(req), req.body);
    },
  );
  r.post(
    '/staff/bookings/:id/no-show',
    {
      config: setWork,
      schema: {
        tags,
        summary: 'Mark a family no-show, once its session has started (harmless twice)',
        description: '409 SESSION_NOT_STARTED, ALREADY_CHECKED_IN, BOOKING_CANCELLED, BOOKING_NOT_CONFIRMED.',
        params: staffBookingParamsSchema,
        response: { 200: staffBookingSchema, ...errors },
      },
    },
    async (req) => markNoShow(app, authOf(req), req.params.id, guard(req)),
  );
  r.post(
    '/staff/bookings/:id/undo',
    {
      config: setWork,
      schema: {
        tags,
        summary: 'Undo a check-in (within 60 seconds) or a no-show',
        description: '409 UNDO_WINDOW_CLOSED after 60 seconds; 409 NOTHING_TO_UNDO.',
        params: staffBookingParamsSchema,
        response: { 200: staffBookingSchema, ...errors },
      },
    },
    async (req) => undoAttendance(app, authOf(req), req.params.id, guard(req)),
  );
  r.get(
    '/staff/bookings/:id/receipt',
    {
      config: reads,
      schema: {
        tags,
        summary: "A paid booking's tax invoice (application/pdf), to print at the counter",
        description:
          'For a walk-in family without an e-mail, or anyone who asks for paper. Billed to the family (a walk-in as ' +
          'entered). 409 NOT_PAID when nothing was paid.',
        params: staffBookingParamsSchema,
        response: {
          200: z.any().meta({ description: 'application/pdf' }),
          400: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (req, reply) => {
      const invoice = await staffReceipt(app, req.params.id, guard(req));
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${invoice.filename}"`)
        .send(invoice.pdf);
    },
  );
  r.post(
    '/staff/walk-ins',
    {
      config: setWork,
      schema: {
        tags,
        summary: 'Sell a free session later today to a family at the set, paid in store',
        description:
          'The booking has `source: "walkin"` and a paid order; with `email` the family gets a receipt with the tax ' +
          'invoice. 409 SLOT_UNAVAILABLE when the session is taken, held, blocked, over or not today; 400 for ' +
          'details or items the session does not allow.',
        body: walkInBodySchema,
        response: { 201: staffBookingSchema, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await sellWalkIn(app, authOf(req), req.body, guard(req))),
  );
}
