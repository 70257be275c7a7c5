-- Decision 0117: the draw writes no ticket. Each entrant's key, the HMAC-SHA256 of its ticket id
-- under the line's seed, is written with the ticket when it joins before the opening; the line's
-- order is `line_key`: entrants by that key, then families placed at the back (`position`, a counter
-- from 1) in the order they were placed. The place a ticket shows is counted from it.
ALTER TABLE "queue_tickets" ADD COLUMN IF NOT EXISTS "draw_key" bytea;--> statement-breakpoint
ALTER TABLE "queue_tickets" ADD COLUMN IF NOT EXISTS "line_key" bytea GENERATED ALWAYS AS (
  CASE WHEN "position" IS NOT NULL THEN '\x01'::bytea || int4send("position")
       WHEN "draw_key" IS NOT NULL THEN '\x00'::bytea || "draw_key" END) STORED;--> statement-breakpoint
DROP INDEX IF EXISTS "queue_tickets_line_idx";--> statement-breakpoint
CREATE INDEX "queue_tickets_line_idx" ON "queue_tickets" USING btree ("location_id", "status", "line_key");--> statement-breakpoint
-- The places and counts ahead of the live streams, read in the line's order without a sort.
CREATE INDEX "queue_tickets_order_idx" ON "queue_tickets" USING btree ("location_id", "line_key") INCLUDE ("status", "user_id");
