-- Issue 51 (decision 0098, PCI DSS 4.0.1 11.6.1): each check of the served payment page, what it
-- saw (its scripts and security headers) and what differed from the inventory and from the check
-- before. The newest row is the baseline the next check compares with.
CREATE TABLE "payment_page_checks" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "checked_at" timestamp with time zone NOT NULL,
  "url" text NOT NULL,
  "fingerprint" text NOT NULL,
  "observed" jsonb NOT NULL,
  "findings" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "alerted" boolean DEFAULT false NOT NULL
);--> statement-breakpoint
CREATE INDEX "payment_page_checks_at_idx" ON "payment_page_checks" ("checked_at");--> statement-breakpoint
-- Operations' own entries (`ops.*`, a change of the payment page) name no booking, session or season:
-- they carry what changed in `after`. Supersedes the rule of 0036, which it keeps.
ALTER TABLE "audit_entries" DROP CONSTRAINT IF EXISTS "audit_entries_has_subject";--> statement-breakpoint
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_has_subject"
  CHECK ("booking_id" IS NOT NULL OR "slot_id" IS NOT NULL OR "season_version" IS NOT NULL OR ("action" LIKE 'staff.%' AND "after" ? 'staffId') OR (("action" LIKE 'queue.%' OR "action" LIKE 'photo.%') AND "after" ? 'locationId') OR ("action" LIKE 'family.%' AND "actor_id" IS NOT NULL) OR ("action" LIKE 'ops.%' AND "after" ? 'check'));
