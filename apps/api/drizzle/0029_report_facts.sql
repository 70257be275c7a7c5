-- The reports' facts (issue 35, decision 0066): one narrow row per paid order and one per session,
-- with the figures the reports sum, so a whole season at every location is a scan of narrow rows
-- instead of a join of every order to its booking and a time-zone conversion per row. Also the
-- indexes a big brand's run sheet and support search were found to need (after session_facts).
--
-- Each row is defined once, by a view that computes it from the source tables. Triggers on every
-- source column the row depends on recompute the changed rows at commit (deferred), after locking
-- the order or session row, so the recompute reads a fresh snapshot that includes every change
-- committed before it: the table equals its view in every committed state (a test checks it).

-- A paid order as the sales report counts it: its booking's location, the local day it was paid
-- there, the channel, its package names, and the invoice's and refund receipts' figures
-- (gstOf per order, decision 0057). A photo order (0028) is a sale of its booking's location with
-- its photo line where the packages go, and `kind` keeps it out of the count of bookings.
CREATE VIEW "sale_facts_live" AS
SELECT o.id AS order_id, b.location_id, (o.paid_at AT TIME ZONE l.timezone)::date AS day, b.source AS channel,
  jsonb_path_query_array(o.items, '$[*] ? (@.type == "package" || @.type == "photo").name')::text AS packages,
  o.amount_cents AS gross_cents, ((2 * o.amount_cents::bigint + 11) / 22)::int AS gst_cents,
  coalesce(r.cents, 0)::int AS refunds_cents, ((2 * coalesce(r.cents, 0) + 11) / 22)::int AS refunds_gst_cents,
  o.kind
FROM orders o
JOIN bookings b ON b.id = o.booking_id
JOIN locations l ON l.id = b.location_id
LEFT JOIN LATERAL (SELECT sum(amount_cents)::bigint AS cents FROM refunds WHERE order_id = o.id AND status = 'succeeded') r ON true
WHERE o.paid_at IS NOT NULL;--> statement-breakpoint
CREATE TABLE "sale_facts" (
  "order_id" uuid PRIMARY KEY REFERENCES "orders" ("id") ON DELETE CASCADE,
  "location_id" uuid NOT NULL,
  "day" date NOT NULL,
  "channel" text NOT NULL,
  "packages" text NOT NULL,
  "gross_cents" integer NOT NULL,
  "gst_cents" integer NOT NULL,
  "refunds_cents" integer NOT NULL,
  "refunds_gst_cents" integer NOT NULL,
  "kind" text NOT NULL
);--> statement-breakpoint
CREATE INDEX "sale_facts_day_idx" ON "sale_facts" ("day", "location_id");--> statement-breakpoint
INSERT INTO "sale_facts" SELECT * FROM "sale_facts_live";--> statement-breakpoint

-- A session as the occupancy report counts it (held is a matter of the clock: the report reads the
-- live holds itself).
CREATE VIEW "session_facts_live" AS
SELECT s.id AS slot_id, s.location_id, (s.start_at AT TIME ZONE l.timezone)::date AS day,
  s.booking_id IS NOT NULL AS booked, s.blocked, b.checked_in_at IS NOT NULL AS checked_in, b.no_show_at IS NOT NULL AS no_show
FROM slots s
JOIN locations l ON l.id = s.location_id
LEFT JOIN bookings b ON b.id = s.booking_id
WHERE s.kind = 'session';--> statement-breakpoint
CREATE TABLE "session_facts" (
  "slot_id" uuid PRIMARY KEY REFERENCES "slots" ("id") ON DELETE CASCADE,
  "location_id" uuid NOT NULL,
  "day" date NOT NULL,
  "booked" boolean NOT NULL,
  "blocked" boolean NOT NULL,
  "checked_in" boolean NOT NULL,
  "no_show" boolean NOT NULL
);--> statement-breakpoint
CREATE INDEX "session_facts_day_idx" ON "session_facts" ("day", "location_id");--> statement-breakpoint
-- A booking's check-in finds the session that counts it (slots.booking_id); free sessions, which
-- the holds update, are not in it.
CREATE INDEX "slots_booking_idx" ON "slots" ("booking_id") WHERE "booking_id" IS NOT NULL;--> statement-breakpoint
-- The bookings of given sessions (the run sheet's day, a closure's sessions, a season change's
-- conflicts): without it each of those read all bookings (a big brand's run sheet: 0.8 s).
CREATE INDEX "bookings_slot_idx" ON "bookings" ("slot_id");--> statement-breakpoint
-- The support search ranks an exact booking reference first (lower(reference) = the query): with a
-- query that matches thousands of families, that test read every booking (135 ms of 300).
CREATE INDEX "bookings_reference_lower_idx" ON "bookings" (lower("reference"));--> statement-breakpoint
INSERT INTO "session_facts" SELECT * FROM "session_facts_live";--> statement-breakpoint

-- Recompute one order's / one session's row. The lock first: a transaction that changed the row
-- (or is refreshing it) holds it until it commits, and the statements after the lock see what it
-- committed (READ COMMITTED takes a snapshot per statement).
CREATE FUNCTION "refresh_sale_fact"(oid uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM orders WHERE id = oid FOR NO KEY UPDATE;
  DELETE FROM sale_facts WHERE order_id = oid;
  INSERT INTO sale_facts SELECT * FROM sale_facts_live WHERE order_id = oid;
END
$$;--> statement-breakpoint
CREATE FUNCTION "refresh_session_fact"(sid uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM slots WHERE id = sid FOR NO KEY UPDATE;
  DELETE FROM session_facts WHERE slot_id = sid;
  INSERT INTO session_facts SELECT * FROM session_facts_live WHERE slot_id = sid;
END
$$;--> statement-breakpoint

CREATE FUNCTION "order_changed_for_reports"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_sale_fact(NEW.id);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "orders_sale_fact_insert" AFTER INSERT ON "orders" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN (NEW.paid_at IS NOT NULL) EXECUTE FUNCTION "order_changed_for_reports"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "orders_sale_fact_update" AFTER UPDATE ON "orders" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN (NEW.paid_at IS DISTINCT FROM OLD.paid_at OR NEW.amount_cents <> OLD.amount_cents OR NEW.items IS DISTINCT FROM OLD.items OR NEW.booking_id <> OLD.booking_id)
EXECUTE FUNCTION "order_changed_for_reports"();--> statement-breakpoint

CREATE FUNCTION "refund_changed_for_reports"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM refresh_sale_fact(OLD.order_id); END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.order_id <> OLD.order_id) THEN PERFORM refresh_sale_fact(NEW.order_id); END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Only succeeded refunds count; a pending one changes nothing until it succeeds.
CREATE CONSTRAINT TRIGGER "refunds_sale_fact_insert" AFTER INSERT ON "refunds" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN (NEW.status = 'succeeded') EXECUTE FUNCTION "refund_changed_for_reports"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "refunds_sale_fact_update" AFTER UPDATE ON "refunds" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN ((OLD.status = 'succeeded' OR NEW.status = 'succeeded')
  AND (NEW.status <> OLD.status OR NEW.amount_cents <> OLD.amount_cents OR NEW.order_id <> OLD.order_id))
EXECUTE FUNCTION "refund_changed_for_reports"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "refunds_sale_fact_delete" AFTER DELETE ON "refunds" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN (OLD.status = 'succeeded') EXECUTE FUNCTION "refund_changed_for_reports"();--> statement-breakpoint

CREATE FUNCTION "slot_changed_for_reports"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_session_fact(NEW.id);
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Not on a hold taken or let go: the drop-day race never reaches these triggers.
CREATE CONSTRAINT TRIGGER "slots_session_fact_insert" AFTER INSERT ON "slots" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN (NEW.kind = 'session') EXECUTE FUNCTION "slot_changed_for_reports"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "slots_session_fact_update" AFTER UPDATE ON "slots" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN (NEW.booking_id IS DISTINCT FROM OLD.booking_id OR NEW.blocked <> OLD.blocked OR NEW.kind <> OLD.kind
  OR NEW.start_at <> OLD.start_at OR NEW.location_id <> OLD.location_id)
EXECUTE FUNCTION "slot_changed_for_reports"();--> statement-breakpoint

CREATE FUNCTION "booking_changed_for_reports"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  id uuid;
BEGIN
  IF NEW.location_id <> OLD.location_id OR NEW.source <> OLD.source THEN
    FOR id IN SELECT o.id FROM orders o WHERE o.booking_id = NEW.id ORDER BY o.id LOOP
      PERFORM refresh_sale_fact(id);
    END LOOP;
  END IF;
  IF NEW.checked_in_at IS DISTINCT FROM OLD.checked_in_at OR NEW.no_show_at IS DISTINCT FROM OLD.no_show_at THEN
    FOR id IN SELECT s.id FROM slots s WHERE s.booking_id = NEW.id ORDER BY s.id LOOP
      PERFORM refresh_session_fact(id);
    END LOOP;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "bookings_report_facts_update" AFTER UPDATE ON "bookings" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN (NEW.location_id <> OLD.location_id OR NEW.source <> OLD.source
  OR NEW.checked_in_at IS DISTINCT FROM OLD.checked_in_at OR NEW.no_show_at IS DISTINCT FROM OLD.no_show_at)
EXECUTE FUNCTION "booking_changed_for_reports"();--> statement-breakpoint

-- A location's zone moves every local day there: recompute all of its rows.
CREATE FUNCTION "location_zone_changed_for_reports"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  id uuid;
BEGIN
  FOR id IN SELECT o.id FROM orders o JOIN bookings b ON b.id = o.booking_id WHERE b.location_id = NEW.id AND o.paid_at IS NOT NULL ORDER BY o.id LOOP
    PERFORM refresh_sale_fact(id);
  END LOOP;
  FOR id IN SELECT s.id FROM slots s WHERE s.location_id = NEW.id AND s.kind = 'session' ORDER BY s.id LOOP
    PERFORM refresh_session_fact(id);
  END LOOP;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "locations_report_facts_zone" AFTER UPDATE ON "locations" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN (NEW.timezone <> OLD.timezone) EXECUTE FUNCTION "location_zone_changed_for_reports"();
