-- Password-reset requests, written before the answer and worked off after it (decision 0009,
-- now durable): a crash between the two no longer loses the mail.
CREATE TABLE "password_reset_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"origin" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text
);--> statement-breakpoint
CREATE INDEX "password_reset_requests_due_idx" ON "password_reset_requests" USING btree ("next_attempt_at","requested_at");--> statement-breakpoint
-- Holds are looked up and freed by reservation (refresh, cancel, checkout, expiry).
CREATE INDEX "slots_hold_reservation_idx" ON "slots" USING btree ("hold_reservation_id") WHERE hold_reservation_id is not null;--> statement-breakpoint
-- The outbox job prunes sent mail and the dev mailbox by age.
CREATE INDEX "mail_outbox_sent_idx" ON "mail_outbox" USING btree ("sent_at") WHERE status = 'sent';--> statement-breakpoint
CREATE INDEX "dev_mailbox_created_idx" ON "dev_mailbox" USING btree ("created_at");
