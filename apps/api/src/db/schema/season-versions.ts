import { integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Every season file loaded (migration 0019, decision 0056): append-only; the highest version is live. */
export const seasonVersions = pgTable('season_versions', {
  version: integer('version').primaryKey(),
  /** The file as it was sent (the season file's own format, defaults not filled in). */
  season: jsonb('season').notNull(),
  savedAt: timestamp('saved_at', { withTimezone: true }).notNull().defaultNow(),
  /** `system`: the CLI or the start-up demo season; `staff`: a manager in the editor. */
  savedByKind: text('saved_by_kind', { enum: ['staff', 'system'] }).notNull(),
  savedById: uuid('saved_by_id'),
  savedByEmail: text('saved_by_email'),
  sessionsAdded: integer('sessions_added').notNull(),
  sessionsRemoved: integer('sessions_removed').notNull(),
  sessionsChanged: integer('sessions_changed').notNull(),
});
