import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import {
  queueJoinBodySchema,
  queueFairnessSchema,
  queueReportSchema,
  queueParamsSchema,
  queueTicketSchema,
  staffQueueSummarySchema,
} from '@kringle/contracts/queue';
import { authOf } from '../../plugins/auth';
import { assertStaffLocation } from '../../plugins/staff-access';
import { staffActor } from '../audit-trail/audit-entries.repository';
import { fairness, getTicket, joinQueue, pauseQueue, staffSummary } from './queue.service';
import { passLocation } from './queue-admission.service';
import { queueAddressOf } from './queue-address';
import { holdAddressOf } from '../sessions/hold-address';
import { queueLiveRoutes } from './queue-live.routes';
import { drawReport } from './queue-report.service';

/** The fair start's waiting room (API.md "Additions (2026-11-26)" → "Fair start", decision 0053). */
export async function queueRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['queue'];
  const gate = app.queueGate;
  gate.runPass = (locationId) => passLocation(app, locationId);

  r.post(
    '/queue/:locationId',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: 'Join the waiting room of a location whose sales open at a set time',
        description:
          'One place per account and location: again (another tab, device or process) → the same ticket. 404 when ' +
          'the location has no line or it is not open yet. ' +
          'At most QUEUE_TICKETS_PER_ADDRESS (20) waiting or admitted tickets in one line from one address (an IPv6 ' +
          'client by its /64): the next is 429 RATE_LIMITED with Retry-After. ' +
          'With `wants` (no body joins as it is): what the family will book, kept while its ticket waits (again with ' +
          'other `wants` replaces them; after the admission they stay as they were). At its admission it is held the ' +
          'first free session of that type, day and window (earliest first), shown as `reservation`; none free → it ' +
          "is admitted to choose. 400 when the session type is not the location's or a package is not offered for it.",
        params: queueParamsSchema,
        body: queueJoinBodySchema.nullish(),
        response: { 200: queueTicketSchema, 400: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (req) => {
      const wants = req.body?.wants;
      const wanted = wants && { wants, holdAddress: holdAddressOf(app, req.ip) };
      return joinQueue(app, authOf(req).userId, req.params.locationId, queueAddressOf(app, req.ip), wanted);
    },
  );

  r.get(
    '/queue/:locationId',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: 'Your place in the line',
        params: queueParamsSchema,
        response: { 200: queueTicketSchema, 404: errorBodySchema },
      },
    },
    async (req) => getTicket(app, authOf(req).userId, req.params.locationId),
  );

  r.get(
    '/queue/:locationId/fairness',
    {
      config: { auth: 'public', appCheck: false },
      schema: {
        tags,
        summary: "The draw's seed hash, the seed after the draw, and the entrants (anyone can recompute the order)",
        description:
          'Order = entrants sorted by hex HMAC-SHA256(key: seed, message: ticket id), ascending; sha256(seed) = ' +
          'seedHash. docs/fair-start.md; tools/check-queue-draw.mjs checks it.',
        params: queueParamsSchema,
        response: { 200: queueFairnessSchema, 404: errorBodySchema },
      },
    },
    async (req) => fairness(app, req.params.locationId),
  );

  r.get(
    '/queue/:locationId/report',
    {
      config: { auth: 'public', appCheck: false },
      schema: {
        tags,
        summary: "The drop's report: the draw, admissions per minute, admission to hold, when it sold out",
        description:
          'Public from the draw on (404 before); `final` once the line has closed. `npm run queue:check` checks the ' +
          'draw and the figures.',
        params: queueParamsSchema,
        response: { 200: queueReportSchema, 404: errorBodySchema },
      },
    },
    async (req) => drawReport(app, req.params.locationId),
  );

  queueLiveRoutes(app);

  // Operators (staff app): managers see the line and may pause it.
  const staff = { auth: 'staff' as const, staffRoles: ['manager'] as const };
  r.get(
    '/staff/queue/:locationId',
    {
      config: staff,
      schema: {
        tags: ['staff'],
        summary: "A location's waiting room: length, admitted, holding, sold",
        params: queueParamsSchema,
        response: { 200: staffQueueSummarySchema, 404: errorBodySchema },
      },
    },
    async (req) => {
      assertStaffLocation(req, req.params.locationId);
      return staffSummary(app, req.params.locationId);
    },
  );
  r.post(
    '/staff/queue/:locationId/pause',
    {
      config: staff,
      schema: {
        tags: ['staff'],
        summary: 'Pause admissions (families keep their places)',
        params: queueParamsSchema,
        response: { 200: staffQueueSummarySchema, 404: errorBodySchema },
      },
    },
    async (req) => {
      assertStaffLocation(req, req.params.locationId);
      return pauseQueue(app, req.params.locationId, true, staffActor(authOf(req)));
    },
  );
  r.post(
    '/staff/queue/:locationId/resume',
    {
      config: staff,
      schema: {
        tags: ['staff'],
        summary: 'Resume admissions',
        params: queueParamsSchema,
        response: { 200: staffQueueSummarySchema, 404: errorBodySchema },
      },
    },
    async (req) => {
      assertStaffLocation(req, req.params.locationId);
      const summary = await pauseQueue(app, req.params.locationId, false, staffActor(authOf(req)));
      gate.nudge(req.params.locationId);
      return summary;
    },
  );
}
