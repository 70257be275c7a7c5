-- Issue 52 (decision 0115): account credit whose three years end unspent is entered as 'expired' (its reason was
-- allowed in 0048), audited with the family's id as a voucher's move is with the voucher's.
ALTER TABLE "audit_entries" DROP CONSTRAINT IF EXISTS "audit_entries_has_subject";--> statement-breakpoint
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_has_subject"
  CHECK ("booking_id" IS NOT NULL OR "slot_id" IS NOT NULL OR "season_version" IS NOT NULL
    OR ("action" LIKE 'staff.%' AND "after" ? 'staffId')
    OR (("action" LIKE 'queue.%' OR "action" LIKE 'photo.%') AND "after" ? 'locationId')
    OR ("action" LIKE 'family.%' AND "actor_id" IS NOT NULL)
    OR ("action" LIKE 'ops.%' AND "after" ? 'check')
    OR ("action" LIKE 'promo.%' AND "after" ? 'promoCodeId')
    OR ("action" LIKE 'voucher.%' AND "after" ? 'voucherId')
    OR ("action" LIKE 'credit.%' AND "after" ? 'userId'));--> statement-breakpoint
-- The expiry job's scan: the grants whose time is up.
CREATE INDEX IF NOT EXISTS "credit_entries_expires_idx" ON "credit_entries" ("expires_at") WHERE "expires_at" IS NOT NULL;
--> statement-breakpoint
-- What an expired or cancelled gift voucher paid comes back as credit when its booking is refunded.
ALTER TABLE "credit_entries" DROP CONSTRAINT IF EXISTS "credit_entries_reason_check";--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_reason_check"
  CHECK ("reason" IN ('cancel_refund', 'closure_refund', 'closure_bonus', 'spent', 'returned', 'refunded_to_card',
    'expired', 'voucher_refund'));
