-- Issue 19. The staff app: attendance on the booking (one row per family, so a conditional UPDATE
-- settles two devices checking the same family in), the name and e-mail of a family who bought at
-- the set (a walk-in has no account: the booking belongs to the staff member who sold it), and a
-- log of every staff action. The log keeps the staff member's e-mail as written at the time, so it
-- still says who did what after an account is removed.
ALTER TABLE "bookings" ADD COLUMN "checked_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "no_show_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "walkin_first_name" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "walkin_last_name" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "walkin_email" text;--> statement-breakpoint
CREATE TABLE "staff_actions" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "booking_id" uuid NOT NULL REFERENCES "bookings"("id") ON DELETE cascade,
  "staff_user_id" uuid REFERENCES "users"("id") ON DELETE set null,
  "staff_email" text NOT NULL,
  "action" text NOT NULL,
  "at" timestamp with time zone DEFAULT now() NOT NULL,
  -- Orders actions made in the same instant (by the app clock) as they happened.
  "seq" bigint GENERATED ALWAYS AS IDENTITY NOT NULL
);--> statement-breakpoint
CREATE INDEX "staff_actions_booking_idx" ON "staff_actions" USING btree ("booking_id", "at", "seq");
