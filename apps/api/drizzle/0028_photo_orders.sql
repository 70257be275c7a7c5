-- Issue 39 (decision 0065): families buy more photos by card. A photo order is an order of the
-- booking like its first one (the same Stripe flow, webhooks, reconciliation and tax invoice); the
-- kind keeps it apart from the booking's own order, and photo_ids says which photos it unlocks.
ALTER TABLE "orders" ADD COLUMN "kind" text DEFAULT 'booking' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_kind_check" CHECK ("kind" IN ('booking', 'photos'));--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "photo_ids" uuid[];--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_photo_ids_check" CHECK (("kind" = 'photos') = ("photo_ids" IS NOT NULL));
