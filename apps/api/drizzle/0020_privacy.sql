-- Issue 38, privacy (decision 0058). A parent's consent to keep access needs (health information,
-- APP 3.3): which booking, which words, when, and the staff member who asked when it was at the set.
CREATE TABLE "consents" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  -- Null for a walk-in family (no account) and kept (set null) when the account goes.
  "user_id" uuid REFERENCES "users"("id") ON DELETE set null,
  "booking_id" uuid NOT NULL REFERENCES "bookings"("id") ON DELETE cascade,
  "kind" text NOT NULL CHECK ("kind" IN ('access_needs')),
  "wording_version" text NOT NULL,
  "given_at" timestamp with time zone NOT NULL,
  "recorded_by" uuid REFERENCES "users"("id") ON DELETE set null
);--> statement-breakpoint
CREATE INDEX "consents_user_idx" ON "consents" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "consents_booking_idx" ON "consents" USING btree ("booking_id");--> statement-breakpoint
-- A deleted account keeps its row (ids in the audit trail, bookings, tax invoices) with nothing
-- that names the person.
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
-- The name printed on a tax invoice, copied when the account is deleted (its figures and this name
-- are kept INVOICE_RETENTION_YEARS, then the invoice-names job clears it).
ALTER TABLE "orders" ADD COLUMN "invoice_name" text;--> statement-breakpoint
CREATE INDEX "orders_invoice_name_idx" ON "orders" USING btree ("paid_at") WHERE "invoice_name" IS NOT NULL;--> statement-breakpoint
-- The unverified-accounts purge.
CREATE INDEX "users_unverified_idx" ON "users" USING btree ("created_at") WHERE "email_verified_at" IS NULL AND "is_staff" = false AND "deleted_at" IS NULL;
