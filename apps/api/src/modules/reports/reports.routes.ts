import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import { donationReportQuerySchema, donationReportSchema } from '@kringle/contracts/donation-reports';
import {
  occupancyQuerySchema,
  occupancyReportSchema,
  REPORT_MAX_DAYS,
  salesQuerySchema,
  salesReportSchema,
} from '@kringle/contracts/reports';
import { assertStaffLocation } from '../../plugins/staff-access';
import { donationsCsv, occupancyCsv, salesCsv, vouchersCsv } from './reports.csv';
import { voucherReport } from './voucher-report.service';
import { voucherReportQuerySchema, voucherReportSchema } from '@kringle/contracts/voucher-reports';
import { donationReport, occupancyReport, salesReport, type ReportScope } from './reports.service';

const SALES_DOC = [
  "Paid orders (each with its tax invoice) counted on the local day they were paid, at the booking's location; their " +
    'succeeded refunds count against them whenever made.',
  'gstCents is the sum of the tax invoices\' "GST included", refundsGstCents of the refund receipts\' "GST refunded" ' +
    '(each rounded per invoice, as printed), so both agree with the invoices to the cent.',
  'Online sales and walk-ins (paid in store) apart: every row and the totals carry `channels.online` and ' +
    '`channels.walkin`, which add up to the row.',
  'groupBy=package puts each order, add-ons included, under the names of its packages ("A + B" for several), so that ' +
    "every figure stays an invoice's.",
].join('\n\n');
const SCOPE_DOC =
  `from/to are days (YYYY-MM-DD), both inclusive, at most ` +
  `${REPORT_MAX_DAYS} days apart (400 VALIDATION_FAILED otherwise). With locationId, that location (403 ` +
  `LOCATION_FORBIDDEN outside the caller's list); without it, every location the caller covers.`;

/** Managers' reports (issue 35, API.md "Season editor, closures, reports"; decision 0057). */
export async function reportsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { auth: 'staff' as const, staffRoles: ['manager'] as const };
  const tags = ['staff'];
  const csv = z.any().meta({ description: 'text/csv' });
  const scopeOf = (req: FastifyRequest): ReportScope => ({
    staffLocationIds: req.staffAccess?.locationIds ?? [],
    assertLocation: (locationId) => assertStaffLocation(req, locationId),
  });
  const sendCsv = (reply: FastifyReply, name: string, body: string) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}.csv"`)
      .send(body);

  r.get(
    '/staff/reports/sales',
    {
      config,
      schema: {
        tags,
        summary: 'Sales by day, location or package: gross, GST, refunds, net; online and walk-in apart',
        description: `${SALES_DOC}\n\n${SCOPE_DOC}`,
        querystring: salesQuerySchema,
        response: { 200: salesReportSchema, 400: errorBodySchema },
      },
    },
    async (req) => salesReport(app, req.query, scopeOf(req)),
  );
  r.get(
    '/staff/reports/sales.csv',
    {
      config,
      schema: {
        tags,
        summary: 'The sales report as CSV (text/csv), for the accountant',
        description:
          `A line per key and channel, then the totals per channel and for all. Dollars with two ` +
          `decimals. ${SCOPE_DOC}`,
        querystring: salesQuerySchema,
        response: { 200: csv, 400: errorBodySchema },
      },
    },
    async (req, reply) =>
      sendCsv(
        reply,
        `sales-by-${req.query.groupBy}-${req.query.from}-${req.query.to}`,
        salesCsv(await salesReport(app, req.query, scopeOf(req))),
      ),
  );
  r.get(
    '/staff/reports/occupancy',
    {
      config,
      schema: {
        tags,
        summary: 'Occupancy per location and day: capacity, booked, held, free, closed, checked in, no-show',
        description:
          `Each session (one family) counted once, as the run sheet shows it: booked, else held (a live ` +
          `hold), else closed (out of sale), else free. ${SCOPE_DOC}`,
        querystring: occupancyQuerySchema,
        response: { 200: occupancyReportSchema, 400: errorBodySchema },
      },
    },
    async (req) => occupancyReport(app, req.query, scopeOf(req)),
  );
  r.get(
    '/staff/reports/occupancy.csv',
    {
      config,
      schema: {
        tags,
        summary: 'The occupancy report as CSV (text/csv)',
        description: SCOPE_DOC,
        querystring: occupancyQuerySchema,
        response: { 200: csv, 400: errorBodySchema },
      },
    },
    async (req, reply) =>
      sendCsv(
        reply,
        `occupancy-${req.query.from}-${req.query.to}`,
        occupancyCsv(await occupancyReport(app, req.query, scopeOf(req))),
      ),
  );
  const DONATIONS_DOC =
    'Paid orders with a donation (CHARITY_NAME), on the local day they were paid. A refund takes the goods first, ' +
    `so a donation goes back only with a full refund: refundedCents, counted on the day of the sale. ${SCOPE_DOC}`;
  r.get(
    '/staff/reports/donations',
    {
      config,
      schema: {
        tags,
        summary:
          "Donations by day, for the charity: donated, refunded, net (outside GST and the sales report's figures)",
        description: DONATIONS_DOC,
        querystring: donationReportQuerySchema,
        response: { 200: donationReportSchema, 400: errorBodySchema },
      },
    },
    async (req) => donationReport(app, req.query, scopeOf(req)),
  );
  r.get(
    '/staff/reports/donations.csv',
    {
      config,
      schema: {
        tags,
        summary: 'The donations report as CSV (text/csv), to send to the charity',
        description: DONATIONS_DOC,
        querystring: donationReportQuerySchema,
        response: { 200: csv, 400: errorBodySchema },
      },
    },
    async (req, reply) =>
      sendCsv(
        reply,
        `donations-${req.query.from}-${req.query.to}`,
        donationsCsv(await donationReport(app, req.query, scopeOf(req))),
      ),
  );
  const VOUCHERS_DOC =
    'Gift vouchers by day (Sydney time), brand-wide: sold (paid), redeemed (spent on bookings, less what lapses and ' +
    'refunds gave back), expired (the balance left at expiry) and cancelled (refunded to the buyer); outstanding is ' +
    "every live voucher's balance now. A voucher's sale is not a taxable supply: the sales report counts the " +
    `bookings it pays for. from/to both inclusive, at most ${REPORT_MAX_DAYS} days apart.`;
  r.get(
    '/staff/reports/vouchers',
    {
      config,
      schema: {
        tags,
        summary: 'Gift voucher liability by day: sold, redeemed, expired, cancelled, and outstanding now',
        description: VOUCHERS_DOC,
        querystring: voucherReportQuerySchema,
        response: { 200: voucherReportSchema, 400: errorBodySchema },
      },
    },
    async (req) => voucherReport(app, req.query),
  );
  r.get(
    '/staff/reports/vouchers.csv',
    {
      config,
      schema: {
        tags,
        summary: 'The gift voucher liability report as CSV (text/csv)',
        description: VOUCHERS_DOC,
        querystring: voucherReportQuerySchema,
        response: { 200: csv, 400: errorBodySchema },
      },
    },
    async (req, reply) =>
      sendCsv(reply, `vouchers-${req.query.from}-${req.query.to}`, vouchersCsv(await voucherReport(app, req.query))),
  );
}
