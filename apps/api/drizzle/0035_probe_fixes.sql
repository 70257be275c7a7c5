-- Issue 48 item 13: waiting-room tickets per address. The address a ticket was taken from, as a
-- keyed hash of its place (an IPv6 client by its /64; decisions 0069, 0074), never the address
-- itself; null when no cap is in force (RATE_LIMIT_MODE=off).
ALTER TABLE "queue_tickets" ADD COLUMN "join_address" text;--> statement-breakpoint
CREATE INDEX "queue_tickets_address_idx" ON "queue_tickets" USING btree ("location_id", "join_address") WHERE "join_address" IS NOT NULL;
