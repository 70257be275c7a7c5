-- Issue 35 (decision 0055). A closure takes sessions of one location out of sale (their slots are
-- `blocked` in the same transaction) and remedies each booking on them, once: one row per booking
-- in closure_bookings, claimed with FOR UPDATE SKIP LOCKED by the closures job, so a restart midway
-- or two processes at once handle each booking exactly once.
CREATE TABLE "closures" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "location_id" uuid NOT NULL REFERENCES "locations"("id") ON DELETE CASCADE,
  "slot_type_id" uuid REFERENCES "slot_types"("id") ON DELETE CASCADE,
  "from_at" timestamp with time zone NOT NULL,
  "to_at" timestamp with time zone NOT NULL,
  "reason" text NOT NULL,
  "message" text DEFAULT '' NOT NULL,
  "remedy" text NOT NULL CHECK ("remedy" IN ('refund', 'offer_move')),
  "status" text DEFAULT 'running' NOT NULL CHECK ("status" IN ('running', 'done')),
  "sessions" integer DEFAULT 0 NOT NULL,
  "created_by" uuid NOT NULL,
  "idempotency_key" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "finished_at" timestamp with time zone
);--> statement-breakpoint
-- The same Idempotency-Key from the same manager is the same closure.
CREATE UNIQUE INDEX "closures_idempotency_idx" ON "closures" USING btree ("created_by", "idempotency_key") WHERE "idempotency_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "closures_running_idx" ON "closures" USING btree ("created_at") WHERE "status" = 'running';--> statement-breakpoint
CREATE TABLE "closure_bookings" (
  -- Also the id of the hold an offer keeps on its replacement session (slots.hold_reservation_id).
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "closure_id" uuid NOT NULL REFERENCES "closures"("id") ON DELETE CASCADE,
  "booking_id" uuid NOT NULL REFERENCES "bookings"("id") ON DELETE CASCADE,
  "outcome" text CHECK ("outcome" IN ('move_offered', 'moved', 'refunded', 'failed')),
  "detail" text DEFAULT '' NOT NULL,
  "offer_slot_id" uuid REFERENCES "slots"("id") ON DELETE SET NULL,
  "offer_expires_at" timestamp with time zone,
  "handled_at" timestamp with time zone,
  "seq" bigint GENERATED ALWAYS AS IDENTITY NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "closure_bookings_one_idx" ON "closure_bookings" USING btree ("closure_id", "booking_id");--> statement-breakpoint
CREATE INDEX "closure_bookings_booking_idx" ON "closure_bookings" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "closure_bookings_todo_idx" ON "closure_bookings" USING btree ("closure_id", "seq") WHERE "outcome" IS NULL;--> statement-breakpoint
CREATE INDEX "closure_bookings_offers_idx" ON "closure_bookings" USING btree ("offer_expires_at") WHERE "outcome" = 'move_offered';
