-- Issue 56: chargebacks. What the evidence is drawn from, recorded as it happens, and the disputes themselves.
-- The checkout records the policy the family accepted (the numbers in force), when, and the address it paid from.
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "policy_accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "policy_accepted" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "purchase_ip" text;--> statement-breakpoint
-- The family opening its gallery (downloads are in the audit trail already).
ALTER TABLE "photo_galleries" ADD COLUMN IF NOT EXISTS "first_viewed_at" timestamptz;--> statement-breakpoint
ALTER TABLE "photo_galleries" ADD COLUMN IF NOT EXISTS "last_viewed_at" timestamptz;--> statement-breakpoint
ALTER TABLE "photo_galleries" ADD COLUMN IF NOT EXISTS "views" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "disputes" (
  "id" text PRIMARY KEY,
  "order_id" uuid NOT NULL REFERENCES "orders" ("id") ON DELETE CASCADE,
  "booking_id" uuid NOT NULL REFERENCES "bookings" ("id") ON DELETE CASCADE,
  "charge_id" text NOT NULL,
  "reason" text NOT NULL,
  "amount_cents" integer NOT NULL,
  "currency" text NOT NULL,
  "status" text NOT NULL,
  "due_by" timestamp with time zone,
  -- The `created` of the last Stripe event applied: an older one arriving late changes nothing.
  "stripe_event_at" timestamp with time zone NOT NULL,
  "evidence" jsonb,
  "evidence_staged_at" timestamp with time zone,
  "submitted_at" timestamp with time zone,
  "submitted_by" uuid REFERENCES "users" ("id") ON DELETE SET NULL,
  "submit_reason" text,
  "created_at" timestamp with time zone NOT NULL,
  "closed_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "disputes_order_idx" ON "disputes" ("order_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "disputes_booking_idx" ON "disputes" ("booking_id");--> statement-breakpoint
-- The evidence still to stage (a Stripe call that failed is tried again by the job).
CREATE INDEX IF NOT EXISTS "disputes_unstaged_idx" ON "disputes" ("created_at")
  WHERE "evidence_staged_at" IS NULL AND "submitted_at" IS NULL;
