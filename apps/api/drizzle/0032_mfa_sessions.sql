-- Issue 48 items 1 and 2 (decision 0080). A session says how it was signed into: each refresh
-- token carries its family's `amr` (RFC 8176: 'pwd', and 'otp' once a TOTP or recovery code was
-- proved), copied on rotation. Enrolling the second factor, a role change that needs it, ends the
-- families without 'otp'; a refresh of one is refused whenever the account has a factor.
ALTER TABLE "refresh_tokens" ADD COLUMN "amr" text[] DEFAULT '{pwd}' NOT NULL;--> statement-breakpoint
-- The live families of enrolled accounts that began after the enrolment went through the second
-- step (sign-in asks it of every enrolled account): they keep working. Those begun before it are
-- the password-only sessions of the finding, and stay 'pwd' (refused at their next refresh).
UPDATE "refresh_tokens" rt SET "amr" = '{pwd,otp}'
  FROM "users" u
  WHERE u.id = rt.user_id AND u.mfa_enrolled_at IS NOT NULL AND rt.revoked_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM "refresh_tokens" f WHERE f.family_id = rt.family_id AND f.created_at < u.mfa_enrolled_at);--> statement-breakpoint
-- Wrong second-factor codes per account, across mfaTokens, addresses and API processes (NIST SP
-- 800-63B 5.2.2): consecutive failures, and until when the account accepts no code at all.
ALTER TABLE "users" ADD COLUMN "mfa_failed_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mfa_locked_until" timestamp with time zone;
--> statement-breakpoint
-- The second factor's audit entries (staff.mfa_enrolled, staff.mfa_reset, staff.mfa_locked) are
-- about a staff account, which the trail has no column for: they name it in before and after
-- (`staffId`, the e-mail as it was). The subject rule admits a `staff.` entry that does so.
ALTER TABLE "audit_entries" DROP CONSTRAINT IF EXISTS "audit_entries_has_subject";--> statement-breakpoint
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_has_subject"
  CHECK ("booking_id" IS NOT NULL OR "slot_id" IS NOT NULL OR "season_version" IS NOT NULL OR ("action" LIKE 'staff.%' AND "after" ? 'staffId'));
