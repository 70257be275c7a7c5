-- Issue 52: promo codes made by managers; a cart and its order keep the code and the cents it took off.
CREATE TABLE IF NOT EXISTS "promo_codes" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- In capitals: what a family types is compared in capitals too.
  "code" text NOT NULL UNIQUE,
  "kind" text NOT NULL CHECK ("kind" IN ('percent', 'amount')),
  "value" integer NOT NULL CHECK ("value" > 0),
  "valid_from" timestamptz NOT NULL,
  "valid_to" timestamptz NOT NULL,
  -- Null: every location (or session type).
  "location_ids" uuid[],
  "slot_type_ids" uuid[],
  "max_uses" integer,
  "max_uses_per_family" integer NOT NULL DEFAULT 1,
  "min_spend_cents" integer,
  "active" boolean NOT NULL DEFAULT true,
  "created_by" uuid REFERENCES "users" ("id") ON DELETE SET NULL,
  "created_at" timestamptz NOT NULL DEFAULT now()
);--> statement-breakpoint
ALTER TABLE "carts" ADD COLUMN IF NOT EXISTS "promo_code_id" uuid REFERENCES "promo_codes" ("id");--> statement-breakpoint
ALTER TABLE "carts" ADD COLUMN IF NOT EXISTS "discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- An order's amount_cents is what the card pays; the goods' total is amount_cents + discount_cents.
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "promo_code_id" uuid REFERENCES "promo_codes" ("id");--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The code's letters as the tax invoice prints them (they never change).
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "promo_code" text;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_promo_code_idx" ON "orders" ("promo_code_id") WHERE "promo_code_id" IS NOT NULL;
--> statement-breakpoint
-- A promo code's entries (`promo.*`) name no booking: they carry the code's id in `after`. Keeps 0038's rule.
ALTER TABLE "audit_entries" DROP CONSTRAINT IF EXISTS "audit_entries_has_subject";--> statement-breakpoint
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_has_subject"
  CHECK ("booking_id" IS NOT NULL OR "slot_id" IS NOT NULL OR "season_version" IS NOT NULL OR ("action" LIKE 'staff.%' AND "after" ? 'staffId') OR (("action" LIKE 'queue.%' OR "action" LIKE 'photo.%') AND "after" ? 'locationId') OR ("action" LIKE 'family.%' AND "actor_id" IS NOT NULL) OR ("action" LIKE 'ops.%' AND "after" ? 'check') OR ("action" LIKE 'promo.%' AND "after" ? 'promoCodeId'));
