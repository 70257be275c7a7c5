-- Issue 54: the booking in the family's pocket (decisions 0099 passes, 0100 SMS).
-- A family's SMS choice: the mobile itself stays in users.phone (E.164 when set by PATCH /user/me).
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "sms_reminders" boolean NOT NULL DEFAULT false;--> statement-breakpoint
-- The SMS outbox, written in the transaction of the change as mail_outbox is (decision 0003).
-- `suppressed`: never sent on purpose (the number replied STOP, or had its 5 of the last 24 hours).
CREATE TABLE IF NOT EXISTS "sms_outbox" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "to_number" text NOT NULL,
  "body" text NOT NULL,
  "kind" text NOT NULL CHECK ("kind" IN ('reminder', 'closure', 'move', 'delay')),
  "user_id" uuid REFERENCES "users"("id") ON DELETE CASCADE,
  "booking_id" uuid REFERENCES "bookings"("id") ON DELETE SET NULL,
  "status" text DEFAULT 'pending' NOT NULL
    CHECK ("status" IN ('pending', 'sent', 'failed', 'suppressed')),
  "suppressed_reason" text,
  "attempts" integer DEFAULT 0 NOT NULL,
  "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
  "last_error" text,
  "provider_id" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "sent_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sms_outbox_due_idx" ON "sms_outbox" ("status", "next_attempt_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sms_outbox_number_idx" ON "sms_outbox" ("to_number", "created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sms_outbox_user_idx" ON "sms_outbox" ("user_id") WHERE "user_id" IS NOT NULL;--> statement-breakpoint
-- Numbers that replied STOP (the provider's signed webhook); START deletes the row. Kept when an
-- account is deleted: the number asked not to be texted, whoever holds it (Spam Act 2003).
CREATE TABLE IF NOT EXISTS "sms_opt_outs" (
  "number" text PRIMARY KEY NOT NULL,
  "stopped_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
-- What the local SMS catcher received (embedded default only, /dev/sms).
CREATE TABLE IF NOT EXISTS "dev_sms" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "to_number" text NOT NULL,
  "from_number" text NOT NULL,
  "body" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "dev_sms_to_idx" ON "dev_sms" ("to_number", "created_at");--> statement-breakpoint
-- Apple Wallet devices that registered a booking's pass (PassKit web service). `pushed_version`:
-- the booking's updated_at the last push told the device about; a newer one is pushed again.
CREATE TABLE IF NOT EXISTS "wallet_registrations" (
  "device_library_id" text NOT NULL,
  "booking_id" uuid NOT NULL REFERENCES "bookings"("id") ON DELETE CASCADE,
  "push_token" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "pushed_version" timestamp with time zone,
  PRIMARY KEY ("device_library_id", "booking_id")
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "wallet_registrations_booking_idx"
  ON "wallet_registrations" ("booking_id");--> statement-breakpoint
-- "Santa is running late": one row per booking told, at most one per booking per 30 minutes.
CREATE TABLE IF NOT EXISTS "delay_notices" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "booking_id" uuid NOT NULL REFERENCES "bookings"("id") ON DELETE CASCADE,
  "location_id" uuid NOT NULL REFERENCES "locations"("id"),
  "minutes" integer NOT NULL CHECK ("minutes" BETWEEN 5 AND 120),
  "message" text,
  "expected_start_at" timestamp with time zone NOT NULL,
  "sent_at" timestamp with time zone NOT NULL,
  "sent_by" uuid
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "delay_notices_booking_idx" ON "delay_notices" ("booking_id", "sent_at");
