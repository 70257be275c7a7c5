-- Live holds per address (issue 36, decision 0069): a hold records where it was taken from, as a
-- keyed hash of the client's address (an IPv6 client by its /64), never the address itself. The
-- drop-day statements count an address's live holds on the session's location and day through
-- this partial index: a probe of the address's few live rows, in the hold's own statement.
ALTER TABLE "reservations" ADD COLUMN "hold_address" text;--> statement-breakpoint
CREATE INDEX "reservations_address_live_idx" ON "reservations" USING btree ("hold_address","location_id","expires_at") WHERE hold_address IS NOT NULL AND status IN ('active', 'checked_out') AND waitlist_entry_id IS NULL;
