import { z } from 'zod';

/**
 * The season editor (issue 35, decision 0056). The season itself travels in the season file's own
 * format (season.ts, docs/season.md); these are what the editor's routes answer about it.
 */
export const seasonConflictSchema = z
  .object({
    slotId: z.uuid(),
    bookingId: z.uuid().nullable().meta({ description: 'null: a live hold, not yet a booking' }),
    reference: z.string().nullable().meta({ description: "The booking's reference, e.g. KR-7K3Q9" }),
    location: z.string().meta({ description: "The location's slug" }),
    startAt: z.iso.datetime(),
    change: z.enum(['removed', 'changed']).meta({ description: 'What the new season would do to the session' }),
  })
  .meta({ id: 'SeasonConflict' });
export type SeasonConflict = z.infer<typeof seasonConflictSchema>;

const counts = {
  sessionsAdded: z.number().int(),
  sessionsRemoved: z.number().int(),
  sessionsChanged: z.number().int().meta({ description: 'Same type and start, another end or turned into a break' }),
};

/** A value of the season file as the preview lists it: lists joined into one line. */
export const seasonChangeValueSchema = z.union([z.string(), z.number(), z.boolean()]);
export type SeasonChangeValue = z.infer<typeof seasonChangeValueSchema>;

export const seasonChangeSchema = z
  .object({
    item: z.enum(['season', 'location', 'slotType', 'package', 'addOn']),
    slug: z
      .string()
      .nullable()
      .meta({ description: "The item's slug; null for the season's own fields (extraPhotoPriceCents)" }),
    name: z.string().meta({ description: "The item's name in the new file" }),
    change: z.enum(['added', 'removed', 'changed']).meta({
      description: 'removed: a session type, package or add-on left out of the file (packages and add-ons are retired)',
    }),
    field: z
      .string()
      .nullable()
      .meta({
        description:
          "The file's field that changes (priceCents, salesOpenAt, …; `queue` is the waiting room's effective " +
          'opensMinutesBefore, 0 for none); null when the item is added or removed',
      }),
    before: seasonChangeValueSchema
      .nullable()
      .meta({ description: "The live value (salesOpenAt in the location's own zone, prices in cents); null: not set" }),
    after: seasonChangeValueSchema.nullable(),
  })
  .meta({ id: 'SeasonChange' });
export type SeasonChange = z.infer<typeof seasonChangeSchema>;

export const seasonPreviewSchema = z
  .object({
    ...counts,
    conflicts: z
      .array(seasonConflictSchema)
      .meta({ description: 'Future sessions with a booking or a live hold that the change would remove or change' }),
    changes: z.array(seasonChangeSchema).meta({
      description:
        'Every change of the file against the live version, prices, opening time and waiting room included (issue 53)',
    }),
  })
  .meta({ id: 'SeasonPreview' });
export type SeasonPreview = z.infer<typeof seasonPreviewSchema>;

export const seasonSavedSchema = z.object({ version: z.number().int(), ...counts }).meta({ id: 'SeasonSaved' });
export type SeasonSaved = z.infer<typeof seasonSavedSchema>;

export const seasonVersionSchema = z
  .object({
    version: z.number().int(),
    savedAt: z.iso.datetime(),
    savedBy: z.object({
      kind: z
        .enum(['staff', 'system'])
        .meta({ description: 'system: the season:load CLI or the demo season at start-up' }),
      id: z.uuid().nullable(),
      email: z.string().nullable(),
    }),
    live: z.boolean(),
    ...counts,
  })
  .meta({ id: 'SeasonVersion' });
export type SeasonVersion = z.infer<typeof seasonVersionSchema>;

export const seasonVersionListSchema = z
  .object({ items: z.array(seasonVersionSchema).meta({ description: 'Newest first' }) })
  .meta({ id: 'SeasonVersionList' });
export type SeasonVersionList = z.infer<typeof seasonVersionListSchema>;

export const seasonVersionParamsSchema = z.strictObject({ version: z.coerce.number().int().min(1).max(2_147_483_647) });

export const seasonConflictBodySchema = z
  .object({ error: z.string(), code: z.literal('SESSIONS_HAVE_BOOKINGS'), conflicts: z.array(seasonConflictSchema) })
  .meta({ id: 'SeasonConflictError' });

/** The ETag of a season version, and the version an If-Match names (null: not one of ours). */
export const seasonEtag = (version: number) => `"${version}"`;
export function versionOfEtag(header: string | undefined): number | null {
  const m = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header ?? '');
  return m ? Number(m[1]) : null;
}
