-- Issue 34 (decision 0050). Staff roles and locations, deactivation, a TOTP second factor with
-- hashed recovery codes, the short-lived token between the two sign-in steps, and invitations.
-- A customer has no staff_role; every existing staff account (is_staff) becomes `set`, the role
-- with the least access: a manager is made on purpose (npm run staff:add), never by a migration.
ALTER TABLE "users" ADD COLUMN "staff_role" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "location_ids" uuid[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- AES-256-GCM ciphertext (never the plain secret; never returned by any route).
ALTER TABLE "users" ADD COLUMN "mfa_secret" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mfa_enrolled_at" timestamp with time zone;--> statement-breakpoint
-- The last TOTP time step accepted: a code is usable once, and never an older one after it.
ALTER TABLE "users" ADD COLUMN "mfa_last_step" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_sign_in_at" timestamp with time zone;--> statement-breakpoint
UPDATE "users" SET "staff_role" = 'set' WHERE "is_staff";--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_staff_role_check" CHECK (
  ("is_staff" AND "staff_role" IN ('manager', 'support', 'set')) OR (NOT "is_staff" AND "staff_role" IS NULL)
);--> statement-breakpoint
CREATE TABLE "staff_recovery_codes" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "code_hash" text NOT NULL,
  "used_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "staff_recovery_codes_user_hash_key" ON "staff_recovery_codes" USING btree ("user_id", "code_hash");--> statement-breakpoint
CREATE TABLE "mfa_challenges" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "token_hash" text NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "used_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "mfa_challenges_hash_key" ON "mfa_challenges" USING btree ("token_hash");--> statement-breakpoint
CREATE TABLE "staff_invitations" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "code_hash" text NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "used_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "staff_invitations_hash_key" ON "staff_invitations" USING btree ("code_hash");
