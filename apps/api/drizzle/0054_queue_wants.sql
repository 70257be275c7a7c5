-- Issue 55 (decision 0116): what a family in the line will book, given before its admission, and the
-- keyed hash of the address it gave it from (the hold made for it counts against that address's cap, decision 0069).
ALTER TABLE "queue_tickets" ADD COLUMN IF NOT EXISTS "wants" jsonb;--> statement-breakpoint
ALTER TABLE "queue_tickets" ADD COLUMN IF NOT EXISTS "wants_address" text;
