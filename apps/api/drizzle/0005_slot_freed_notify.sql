-- Tells every API process when a session is freed (decision 0014): a hold let go or replaced, a
-- booking cancelled or moved, a block lifted, a start moved. Sent at commit, only if it commits.
-- Payload: the slot id, then the reservation whose hold ended (empty when there was none).
CREATE FUNCTION "kringle_slot_freed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kringle_freed', NEW.id::text || ' ' || coalesce(OLD.hold_reservation_id::text, ''));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "slots_freed" AFTER UPDATE ON "slots" FOR EACH ROW
WHEN (
  (OLD.hold_reservation_id IS NOT NULL AND NEW.hold_reservation_id IS DISTINCT FROM OLD.hold_reservation_id)
  OR (OLD.booking_id IS NOT NULL AND NEW.booking_id IS DISTINCT FROM OLD.booking_id)
  OR (OLD.blocked AND NOT NEW.blocked)
  OR NEW.start_at IS DISTINCT FROM OLD.start_at
  OR NEW.kind IS DISTINCT FROM OLD.kind
)
EXECUTE FUNCTION "kringle_slot_freed"();
