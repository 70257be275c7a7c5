-- ID tokens refused at once after an account's sessions end (issue 38, decision 0063): deletion,
-- a password change or reset, "sign out everywhere", a staff account deactivated or its second
-- factor reset. Each raises the account's epoch; a token carries the epoch it was issued in and
-- an older one is refused. Every API process mirrors the epochs raised within a token's lifetime
-- (read through the partial index below, at start, on reconnect and by a fallback poll).
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "session_epoch" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "sessions_ended_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_sessions_ended_idx" ON "users" ("sessions_ended_at") WHERE "sessions_ended_at" IS NOT NULL;
