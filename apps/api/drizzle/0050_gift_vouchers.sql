-- Issue 52's gift vouchers (decision 0112). A voucher's code is never stored, only its SHA-256; its
-- balance is the sum of its entries, written under the voucher's row lock. Carts and orders keep the
-- part vouchers pay, the card paying amount_cents - credit_cents - voucher_cents.
CREATE TABLE IF NOT EXISTS "vouchers" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "code_hash" text NOT NULL UNIQUE,
  "buyer_user_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "owner_user_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "amount_cents" integer NOT NULL CHECK ("amount_cents" BETWEEN 2000 AND 50000 AND "amount_cents" % 500 = 0),
  "recipient_name" text NOT NULL,
  "recipient_email" text,
  "message" text,
  "send_on" date NOT NULL,
  "status" text DEFAULT 'pending' NOT NULL CHECK ("status" IN ('pending', 'paid', 'failed', 'cancelled')),
  "payment_intent_id" text UNIQUE,
  "client_secret" text,
  "paid_at" timestamp with time zone,
  "expires_at" timestamp with time zone,
  "claimed_at" timestamp with time zone,
  "mail_id" uuid REFERENCES "mail_outbox"("id") ON DELETE SET NULL,
  "sent_at" timestamp with time zone,
  "cancelled_at" timestamp with time zone,
  "cancel_reason" text,
  "refund_cents" integer CHECK ("refund_cents" >= 0),
  "stripe_refund_id" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CHECK ("status" <> 'paid' OR ("paid_at" IS NOT NULL AND "expires_at" IS NOT NULL))
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "vouchers_owner_idx" ON "vouchers" ("owner_user_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "vouchers_buyer_idx" ON "vouchers" ("buyer_user_id");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "voucher_entries" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "voucher_id" uuid NOT NULL REFERENCES "vouchers"("id") ON DELETE CASCADE,
  "cents" integer NOT NULL CHECK ("cents" <> 0),
  "reason" text NOT NULL CHECK ("reason" IN ('sold', 'spent', 'returned', 'cancelled', 'expired')),
  "order_id" uuid REFERENCES "orders"("id") ON DELETE SET NULL,
  "booking_id" uuid REFERENCES "bookings"("id") ON DELETE SET NULL,
  "refund_id" uuid REFERENCES "refunds"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "voucher_entries_voucher_idx" ON "voucher_entries" ("voucher_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "voucher_entries_order_idx" ON "voucher_entries" ("order_id");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "voucher_code_misses" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "key" text NOT NULL,
  "at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "voucher_code_misses_key_idx" ON "voucher_code_misses" ("key", "at");--> statement-breakpoint
ALTER TABLE "carts" ADD COLUMN IF NOT EXISTS "voucher_parts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "carts" ADD COLUMN IF NOT EXISTS "voucher_cents" integer DEFAULT 0 NOT NULL
  CHECK ("voucher_cents" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "voucher_cents" integer DEFAULT 0 NOT NULL
  CHECK ("voucher_cents" >= 0);--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT IF EXISTS "orders_paid_parts_check";--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_paid_parts_check"
  CHECK ("credit_cents" + "voucher_cents" <= "amount_cents");--> statement-breakpoint
ALTER TABLE "refunds" DROP CONSTRAINT IF EXISTS "refunds_method_check";--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_method_check"
  CHECK ("method" IN ('card', 'credit', 'voucher'));--> statement-breakpoint
-- The voucher's "sent" is its e-mail's: the outbox knows when that went, and may prune the row later.
CREATE OR REPLACE FUNCTION "voucher_mail_sent"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "vouchers" SET "sent_at" = NEW."sent_at" WHERE "mail_id" = NEW."id" AND "sent_at" IS NULL;
  RETURN NEW;
END $$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "voucher_mail_sent" ON "mail_outbox";--> statement-breakpoint
CREATE TRIGGER "voucher_mail_sent" AFTER UPDATE OF "status" ON "mail_outbox"
  FOR EACH ROW WHEN (NEW."status" = 'sent' AND OLD."status" IS DISTINCT FROM 'sent')
  EXECUTE FUNCTION "voucher_mail_sent"();
--> statement-breakpoint
-- A voucher's moves are audited with its id (decision 0112), like a promo code's.
ALTER TABLE "audit_entries" DROP CONSTRAINT IF EXISTS "audit_entries_has_subject";--> statement-breakpoint
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_has_subject"
  CHECK ("booking_id" IS NOT NULL OR "slot_id" IS NOT NULL OR "season_version" IS NOT NULL
    OR ("action" LIKE 'staff.%' AND "after" ? 'staffId')
    OR (("action" LIKE 'queue.%' OR "action" LIKE 'photo.%') AND "after" ? 'locationId')
    OR ("action" LIKE 'family.%' AND "actor_id" IS NOT NULL)
    OR ("action" LIKE 'ops.%' AND "after" ? 'check')
    OR ("action" LIKE 'promo.%' AND "after" ? 'promoCodeId')
    OR ("action" LIKE 'voucher.%' AND "after" ? 'voucherId'));
