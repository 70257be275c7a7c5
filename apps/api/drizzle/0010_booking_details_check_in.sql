-- Issue 18. Who is coming (personal information: deleted DETAILS_RETENTION_DAYS after the session
-- by the details-retention job, which stamps details_deleted_at so a purge is told from "never given").
ALTER TABLE "bookings" ADD COLUMN "details" jsonb;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "details_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "details_deleted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "bookings_with_details_idx" ON "bookings" USING btree ("slot_id") WHERE "details" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "slot_types" ADD COLUMN "allows_pets" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The key that signs check-in codes: one row, generated here from PostgreSQL's strong random source
-- (gen_random_uuid, 122 random bits each, two of them), so every API process reads the same key and
-- no deployment has to configure one.
CREATE TABLE "check_in_keys" (
  "id" smallint PRIMARY KEY DEFAULT 1 NOT NULL CHECK ("id" = 1),
  "secret" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
INSERT INTO "check_in_keys" ("id", "secret") VALUES (1, replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''));
