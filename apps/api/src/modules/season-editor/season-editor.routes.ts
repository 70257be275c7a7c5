import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CATALOGUE } from '@kringle/contracts/error-catalogue';
import { errorBodySchema } from '@kringle/contracts/errors';
import { seasonSchema } from '@kringle/contracts/season';
import {
  seasonConflictBodySchema,
  seasonEtag,
  seasonPreviewSchema,
  seasonSavedSchema,
  seasonVersionListSchema,
  seasonVersionParamsSchema,
  versionOfEtag,
} from '@kringle/contracts/season-editor';
import { authOf } from '../../plugins/auth';
import { SeasonEditorService } from './season-editor.service';

/** The file is documented by its schema but checked by the CLI's own parse, so both say the same words. */
const checkedByTheService: FastifySchemaCompiler<unknown> = () => (value) => ({ value });
const seasonFile = z
  .unknown()
  .meta({ description: 'A season file, as `npm run season:load` reads it (docs/season.md; schema SeasonFile)' });

/** The season editor (issue 35, API.md "Season editor, closures, reports"; decision 0056). Managers only. */
export async function seasonEditorRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = new SeasonEditorService(app.db, app.clock);
  const manager = { auth: 'staff' as const, staffRoles: ['manager'] as const };
  const tags = ['season editor'];
  const body = seasonSchema.meta({
    id: 'SeasonFile',
    description: 'The season file (docs/season.md); checked as `npm run season:load` checks it',
  });

  r.get(
    '/staff/season',
    {
      config: manager,
      schema: {
        tags,
        summary: "The live season, in the season file's own format; ETag: its version",
        response: { 200: seasonFile, 404: errorBodySchema },
      },
    },
    async (_req, reply) => {
      const live = await service.live();
      return reply.header('etag', seasonEtag(live.version)).header('cache-control', 'no-store').send(live.season);
    },
  );
  r.get(
    '/staff/season/versions',
    {
      config: manager,
      schema: {
        tags,
        summary: 'Every saved version of the season: who saved it, when, and what it did to the sessions',
        response: { 200: seasonVersionListSchema },
      },
    },
    async () => ({ items: await service.versions() }),
  );
  r.get(
    '/staff/season/versions/:version',
    {
      config: manager,
      schema: {
        tags,
        summary: 'One saved version as a season file (a download: loads again with season:load or the editor)',
        params: seasonVersionParamsSchema,
        response: { 200: seasonFile, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (req, reply) =>
      reply
        .header('etag', seasonEtag(req.params.version))
        .header('content-disposition', `attachment; filename="season-v${req.params.version}.json"`)
        .send(await service.version(req.params.version)),
  );
  r.post(
    '/staff/season/preview',
    {
      config: manager,
      validatorCompiler: checkedByTheService,
      schema: {
        tags,
        summary: 'What saving this season would do to the future sessions; writes nothing',
        description:
          'conflicts: sessions with a booking or a live hold that the change would remove or change (saving would be ' +
          'refused). 400 as the CLI.',
        body,
        response: { 200: seasonPreviewSchema, 400: errorBodySchema },
      },
    },
    async (req) => service.preview(req.body),
  );
  r.put(
    '/staff/season',
    {
      config: manager,
      validatorCompiler: checkedByTheService,
      schema: {
        tags,
        summary: "Save the season as the new live version (the CLI's load, in one transaction)",
        description:
          'If-Match: the ETag of the version edited (from GET /staff/season). 428 SEASON_VERSION_REQUIRED without ' +
          'it; 412 SEASON_VERSION_STALE when another save came first (reload); ' +
          '409 SESSIONS_HAVE_BOOKINGS with `conflicts` when booked or held sessions would be removed or changed ' +
          '(close those instead; nothing is saved); 400 as the CLI.',
        headers: z.looseObject({ 'if-match': z.string().max(40).optional() }),
        body,
        response: {
          200: seasonSavedSchema,
          400: errorBodySchema,
          409: seasonConflictBodySchema,
          412: errorBodySchema,
          428: errorBodySchema,
        },
      },
    },
    async (req, reply) => {
      const outcome = await service.save(req.body, versionOfEtag(req.headers['if-match']), authOf(req));
      if ('conflicts' in outcome) {
        return reply.code(409).send({
          error: ERROR_CATALOGUE.SESSIONS_HAVE_BOOKINGS.text,
          code: 'SESSIONS_HAVE_BOOKINGS',
          conflicts: outcome.conflicts,
        });
      }
      return reply.header('etag', seasonEtag(outcome.saved.version)).send(outcome.saved);
    },
  );
}
