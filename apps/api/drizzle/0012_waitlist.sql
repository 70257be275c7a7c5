-- Issue 20, the waitlist (decision 0028). A family's place in the line for one location, session
-- type and local date. Live entries are 'waiting' or 'offered'; the others are kept as history.
CREATE TABLE "waitlist_entries" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "location_id" uuid NOT NULL REFERENCES "locations"("id") ON DELETE cascade,
  "slot_type_id" uuid NOT NULL REFERENCES "slot_types"("id") ON DELETE cascade,
  "date" date NOT NULL,
  "status" text DEFAULT 'waiting' NOT NULL CHECK ("status" IN ('waiting', 'offered', 'booked', 'left', 'lapsed', 'ended')),
  -- The offer: a reservation held for this family (reservations.waitlist_entry_id points back).
  "reservation_id" uuid REFERENCES "reservations"("id") ON DELETE set null,
  "offered_at" timestamp with time zone,
  "ended_at" timestamp with time zone,
  -- Order in the line: joins are numbered as they are written (app clocks can tie, or differ per process).
  "seq" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_one_live_per_day" ON "waitlist_entries" USING btree ("user_id", "location_id", "slot_type_id", "date") WHERE "status" IN ('waiting', 'offered');--> statement-breakpoint
-- The line itself, and the hold statements' "is anyone waiting for this day" probe.
CREATE INDEX "waitlist_line_idx" ON "waitlist_entries" USING btree ("location_id", "slot_type_id", "date", "seq") WHERE "status" = 'waiting';--> statement-breakpoint
CREATE INDEX "waitlist_offered_idx" ON "waitlist_entries" USING btree ("reservation_id") WHERE "status" = 'offered';--> statement-breakpoint
CREATE INDEX "waitlist_user_live_idx" ON "waitlist_entries" USING btree ("user_id") WHERE "status" IN ('waiting', 'offered');--> statement-breakpoint
-- An offer is a reservation of the offered family; it is not "the customer's one active hold":
-- holding another session neither releases it nor is refused because of it.
ALTER TABLE "reservations" ADD COLUMN "waitlist_entry_id" uuid;--> statement-breakpoint
DROP INDEX "reservations_one_active_per_user";--> statement-breakpoint
CREATE UNIQUE INDEX "reservations_one_active_per_user" ON "reservations" USING btree ("user_id") WHERE status = 'active' AND waitlist_entry_id IS NULL;
