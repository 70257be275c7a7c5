-- Issue 51 (decision 0097). A family's choices made apart from any booking: news and offers by
-- e-mail (Spam Act: opt-in, with the words' version) and the brand's showing of its photos (a
-- child's image used for something else: separate, time-limited, off by default). One row a
-- consent given; withdrawing stamps it, so the record of what was agreed and when stays.
CREATE TABLE "family_consents" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "kind" text NOT NULL CHECK ("kind" IN ('marketing_email', 'photo_showcase')),
  "wording_version" text NOT NULL,
  "given_at" timestamp with time zone NOT NULL,
  "expires_at" timestamp with time zone,
  "withdrawn_at" timestamp with time zone,
  "withdrawn_via" text CHECK ("withdrawn_via" IN ('account', 'unsubscribe', 'deletion', 'renewed', 'expired')),
  CHECK (("withdrawn_at" IS NULL) = ("withdrawn_via" IS NULL))
);--> statement-breakpoint
-- At most one live consent of a kind per family: two taps at once give one row.
CREATE UNIQUE INDEX "family_consents_live_key" ON "family_consents" ("user_id", "kind") WHERE "withdrawn_at" IS NULL;--> statement-breakpoint
CREATE INDEX "family_consents_kind_idx" ON "family_consents" ("kind", "user_id") WHERE "withdrawn_at" IS NULL;--> statement-breakpoint
-- The key that signs unsubscribe links (as check_in_keys, migration 0010): every API process reads the same one.
CREATE TABLE "unsubscribe_keys" (
  "id" smallint PRIMARY KEY DEFAULT 1 NOT NULL CHECK ("id" = 1),
  "secret" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
INSERT INTO "unsubscribe_keys" ("id", "secret") VALUES (1, replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''));--> statement-breakpoint
-- Extra header lines of a mail (List-Unsubscribe and List-Unsubscribe-Post on promotional mail,
-- RFC 8058), and the same as the dev catcher received them.
ALTER TABLE "mail_outbox" ADD COLUMN "headers" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "dev_mailbox" ADD COLUMN "headers" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
-- A booking for a business or school (ATO): the buyer's name and ABN its tax invoice prints. Not a
-- person's details, so kept with the invoice's figures when the account is deleted.
ALTER TABLE "orders" ADD COLUMN "buyer_business_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "buyer_abn" text CHECK ("buyer_abn" ~ '^[1-9][0-9]{10}$');--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_buyer_both" CHECK (("buyer_business_name" IS NULL) = ("buyer_abn" IS NULL));
