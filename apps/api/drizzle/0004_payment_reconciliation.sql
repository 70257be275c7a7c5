ALTER TABLE "orders" ADD COLUMN "reconcile_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "orders_reconcile_idx" ON "orders" USING btree ("reconcile_at") WHERE reconcile_at is not null;--> statement-breakpoint
-- Unpaid orders from before this migration get one look from the reconciliation job.
UPDATE "orders" SET "reconcile_at" = now() WHERE "status" IN ('pending', 'failed') AND "payment_intent_id" IS NOT NULL;
