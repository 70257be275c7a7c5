-- Issue 34 (decision 0062). The audit trail covers every change of a session's state, not only a
-- booking's: a hold taken, refreshed, released or expired, a waitlist offer made, passed on,
-- lapsed or claimed, a session closed, and a season saved. Such an entry may be about no booking,
-- so booking_id becomes nullable, and an entry says which session (slot_id) or season version
-- (season_version) it is about. No index on slot_id: a hold is the drop-day hot path and the
-- trail is read per booking, per actor and per day (the existing indexes).
ALTER TABLE "audit_entries" ALTER COLUMN "booking_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "slot_id" uuid;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "season_version" integer;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_has_subject"
  CHECK ("booking_id" IS NOT NULL OR "slot_id" IS NOT NULL OR "season_version" IS NOT NULL);--> statement-breakpoint
-- The append-only rule again, now comparing the new columns too: erasing the actor's e-mail stays
-- the one UPDATE let through, and it may change nothing else.
CREATE OR REPLACE FUNCTION "audit_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.actor_email IS NULL
     AND (NEW.id, NEW.at, NEW.actor_kind, NEW.actor_id, NEW.action, NEW.booking_id, NEW.order_id, NEW.reason, NEW.before, NEW.after, NEW.seq, NEW.slot_id, NEW.season_version)
         IS NOT DISTINCT FROM (OLD.id, OLD.at, OLD.actor_kind, OLD.actor_id, OLD.action, OLD.booking_id, OLD.order_id, OLD.reason, OLD.before, OLD.after, OLD.seq, OLD.slot_id, OLD.season_version) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_entries is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

