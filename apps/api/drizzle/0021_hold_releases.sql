-- Issue 36, abuse limits (decision 0059): every hold asks how many sessions the family let go in
-- the last few minutes (the churn cool-down); this index answers it from the family's own rows.
CREATE INDEX "reservations_user_released_idx" ON "reservations" USING btree ("user_id", "updated_at") WHERE status = 'cancelled' AND waitlist_entry_id IS NULL;
