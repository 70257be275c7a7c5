-- Decision 0112: a voucher's payment whose webhook never came is read from Stripe, as an order's is.
ALTER TABLE "vouchers" ADD COLUMN IF NOT EXISTS "reconcile_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "vouchers_reconcile_idx" ON "vouchers" ("reconcile_at") WHERE "reconcile_at" IS NOT NULL;
