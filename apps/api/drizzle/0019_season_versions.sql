-- Issue 35, the season editor (decision 0056). Every season file ever loaded, by the CLI, the
-- start-up demo or the editor: the file as it was sent, who saved it and when, and what it did to
-- the sessions. The highest version is the live season and its number the editor's ETag. Rows are
-- never changed (the trail of who changed the season); the file is kept as sent, so any version
-- can be downloaded and loaded again as it was.
CREATE TABLE "season_versions" (
  "version" integer PRIMARY KEY NOT NULL,
  "season" jsonb NOT NULL,
  "saved_at" timestamp with time zone DEFAULT now() NOT NULL,
  "saved_by_kind" text NOT NULL CHECK ("saved_by_kind" IN ('staff', 'system')),
  "saved_by_id" uuid,
  "saved_by_email" text,
  "sessions_added" integer NOT NULL,
  "sessions_removed" integer NOT NULL,
  "sessions_changed" integer NOT NULL
);--> statement-breakpoint
CREATE FUNCTION "season_versions_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'season_versions is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "season_versions_no_update" BEFORE UPDATE OR DELETE ON "season_versions" FOR EACH ROW EXECUTE FUNCTION "season_versions_append_only"();
