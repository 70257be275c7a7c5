-- Issue 48 item 5: changes of who can do what, and of a family's data, are audited. Some have no
-- booking, session or season to name: the waiting room paused or resumed and photos left unmatched
-- name their location in `after.locationId`; a family's own edits are about the actor's account.
-- Supersedes the rule of 0032.
ALTER TABLE "audit_entries" DROP CONSTRAINT IF EXISTS "audit_entries_has_subject";--> statement-breakpoint
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_has_subject"
  CHECK ("booking_id" IS NOT NULL OR "slot_id" IS NOT NULL OR "season_version" IS NOT NULL OR ("action" LIKE 'staff.%' AND "after" ? 'staffId') OR (("action" LIKE 'queue.%' OR "action" LIKE 'photo.%') AND "after" ? 'locationId') OR ("action" LIKE 'family.%' AND "actor_id" IS NOT NULL));
