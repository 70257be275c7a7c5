-- How a walk-in was paid at the set (issue 37 item 9): cash, card or EFTPOS, for the end-of-day
-- totals. Null for online bookings and for walk-ins sold before it was recorded.
ALTER TABLE "bookings" ADD COLUMN IF NOT EXISTS "walkin_paid_with" text;--> statement-breakpoint
ALTER TABLE "bookings" DROP CONSTRAINT IF EXISTS "bookings_walkin_paid_with_check";--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_walkin_paid_with_check" CHECK ("walkin_paid_with" IS NULL OR ("source" = 'walkin' AND "walkin_paid_with" IN ('cash', 'card', 'eftpos')));
