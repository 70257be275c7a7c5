-- Issue 56: a family marked no-show is e-mailed after its session's end, once, to book again.
ALTER TABLE "bookings" ADD COLUMN IF NOT EXISTS "no_show_mail_sent_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "bookings_no_show_mail_due_idx" ON "bookings" ("slot_id")
  WHERE "no_show_at" IS NOT NULL AND "no_show_mail_sent_at" IS NULL;
