import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import { byIp, rateLimit } from '../../plugins/rate-limit';
import { CSP_DIRECTIVES, cspViolationsTotal } from './metrics';

type Report = Record<string, unknown>;
const MAX_REPORTS = 20;

/**
 * The directive and blocked origin of each report, whichever format the browser used: the old
 * `application/csp-report` (`{"csp-report": {...}}`, kebab-case) or the Reporting API's
 * `application/reports+json` (a list of `{type: "csp-violation", body: {...}}`, camelCase).
 */
export function violationsOf(body: unknown): { directive: string; blocked: string }[] {
  const reports: Report[] = Array.isArray(body)
    ? body
        .filter((r): r is { type: string; body: Report } => typeof r === 'object' && r?.type === 'csp-violation')
        .map((r) => r.body)
    : typeof body === 'object' && body && typeof (body as Report)['csp-report'] === 'object'
      ? [(body as { 'csp-report': Report })['csp-report']]
      : [];
  return reports.slice(0, MAX_REPORTS).map((r) => {
    const raw = String(r.effectiveDirective ?? r['effective-directive'] ?? r['violated-directive'] ?? '');
    const name = raw.split(/\s/, 1)[0]!.toLowerCase();
    const blockedUrl = String(r.blockedURL ?? r['blocked-uri'] ?? '');
    let blocked = blockedUrl;
    try {
      blocked = new URL(blockedUrl).origin; // never the path or query: they can carry a family's data
    } catch {
      blocked = blockedUrl.slice(0, 20); // "inline", "eval", "data"
    }
    return { directive: (CSP_DIRECTIVES as readonly string[]).includes(name) ? name : 'other', blocked };
  });
}

/**
 * POST /csp-reports (decision 0098): where the payment pages' CSP sends its violation reports.
 * Public and without app check (the browser sends them on its own), small, rate-limited per
 * address; each is counted in kringle_csp_violations_total and logged with its blocked origin only.
 */
export async function cspReportRoutes(app: FastifyInstance) {
  for (const type of ['application/csp-report', 'application/reports+json'])
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 16_384 }, (_req, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(null, null);
      }
    });
  app.withTypeProvider<ZodTypeProvider>().post(
    '/csp-reports',
    {
      config: { auth: 'public', appCheck: false },
      bodyLimit: 16_384,
      preHandler: [rateLimit(app, { name: 'csp-reports:ip', max: 60, window: '1 minute', key: byIp })],
      schema: {
        tags: ['operations'],
        summary: 'Content-Security-Policy violation reports (report-uri and report-to of the payment pages)',
        description:
          'Sent by browsers, not by the app: application/csp-report or application/reports+json, at most 16 kB. ' +
          'Counted by ' +
          'directive in kringle_csp_violations_total; the blocked origin is logged, never a path. Always 204.',
        body: z.unknown(),
        response: { 204: z.null(), 429: errorBodySchema },
      },
    },
    async (req, reply) => {
      for (const v of violationsOf(req.body)) {
        cspViolationsTotal.labels(v.directive).inc();
        req.log.warn({ directive: v.directive, blocked: v.blocked }, 'CSP violation reported');
      }
      return reply.code(204).send(null);
    },
  );
}
