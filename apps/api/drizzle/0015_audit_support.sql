-- Issue 34 (decision 0051). The audit trail: one row per change of a booking's, order's or
-- session's state, written by booking-lifecycle/transitions.ts in the same transaction as the
-- change. No foreign keys: an entry must outlive the booking, the order and the actor's account.
-- The actor's e-mail may be blanked when an account is deleted (the only UPDATE allowed: the
-- privacy erasure sets actor_email to null and nothing else); the id stays.
CREATE TABLE "audit_entries" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "at" timestamp with time zone DEFAULT now() NOT NULL,
  "actor_kind" text NOT NULL CHECK ("actor_kind" IN ('family', 'staff', 'system', 'stripe')),
  "actor_id" uuid,
  "actor_email" text,
  "action" text NOT NULL,
  "booking_id" uuid NOT NULL,
  "order_id" uuid,
  "reason" text,
  "before" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "after" jsonb DEFAULT '{}'::jsonb NOT NULL,
  -- Orders entries written in the same instant (by the app clock); also the cursor's tie-break.
  "seq" bigint GENERATED ALWAYS AS IDENTITY NOT NULL
);--> statement-breakpoint
CREATE INDEX "audit_entries_booking_idx" ON "audit_entries" USING btree ("booking_id", "at", "seq");--> statement-breakpoint
CREATE INDEX "audit_entries_actor_idx" ON "audit_entries" USING btree ("actor_id", "at", "seq");--> statement-breakpoint
CREATE INDEX "audit_entries_at_idx" ON "audit_entries" USING btree ("at", "seq");--> statement-breakpoint
-- Append-only in the database itself, whatever the application does: UPDATE and DELETE raise,
-- except the erasure of an actor's e-mail (every other column unchanged).
CREATE FUNCTION "audit_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.actor_email IS NULL
     AND (NEW.id, NEW.at, NEW.actor_kind, NEW.actor_id, NEW.action, NEW.booking_id, NEW.order_id, NEW.reason, NEW.before, NEW.after, NEW.seq)
         IS NOT DISTINCT FROM (OLD.id, OLD.at, OLD.actor_kind, OLD.actor_id, OLD.action, OLD.booking_id, OLD.order_id, OLD.reason, OLD.before, OLD.after, OLD.seq) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_entries is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_entries_no_update" BEFORE UPDATE ON "audit_entries" FOR EACH ROW EXECUTE FUNCTION "audit_entries_append_only"();--> statement-breakpoint
CREATE TRIGGER "audit_entries_no_delete" BEFORE DELETE ON "audit_entries" FOR EACH ROW EXECUTE FUNCTION "audit_entries_append_only"();--> statement-breakpoint
CREATE TRIGGER "audit_entries_no_truncate" BEFORE TRUNCATE ON "audit_entries" FOR EACH STATEMENT EXECUTE FUNCTION "audit_entries_append_only"();--> statement-breakpoint
-- The support desk's one search box (GET /staff/families?q=): part of a name, e-mail, phone or
-- booking reference, fast on 150,000 bookings. Trigram GIN indexes serve ILIKE '%part%'.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_name_trgm_idx" ON "users" USING gin (("first_name" || ' ' || "last_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_phone_trgm_idx" ON "users" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "bookings_reference_trgm_idx" ON "bookings" USING gin ("reference" gin_trgm_ops);--> statement-breakpoint
-- A family's page lists the e-mails sent to its address.
CREATE INDEX "mail_outbox_to_idx" ON "mail_outbox" USING btree ("to_address", "created_at");
