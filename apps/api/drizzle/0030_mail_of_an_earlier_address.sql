-- An unverified account may correct a mistyped address (PUT /user/me/email, decision 0068). The
-- mail already sent to the old address (its verification links, now void) stays the family's: it
-- is stamped with the account's id at the change, so the data export and the account's deletion
-- still find it, and a stranger who later registers the old address does not. Unstamped rows
-- belong, as before, to whoever holds `to_address`. Deleting an account (the unverified-account
-- purge deletes the row) deletes its stamped mail with it.
ALTER TABLE "mail_outbox" ADD COLUMN "user_id" uuid REFERENCES "users" ("id") ON DELETE CASCADE;--> statement-breakpoint
CREATE INDEX "mail_outbox_user_idx" ON "mail_outbox" ("user_id") WHERE "user_id" IS NOT NULL;
