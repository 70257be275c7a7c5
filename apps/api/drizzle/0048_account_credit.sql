-- Issue 52's account credit (decision 0111): a family's balance is the sum of its entries, each a
-- move with its reason. A refund taken as credit is a refund row like a card's (reports count it as a
-- refund of that sale), settled at once with its credit entry; the sender job leaves it alone.
ALTER TABLE "refunds" ADD COLUMN IF NOT EXISTS "method" text DEFAULT 'card' NOT NULL
  CHECK ("method" IN ('card', 'credit'));--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "credit_entries" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "cents" integer NOT NULL CHECK ("cents" <> 0),
  -- Spending ('spent', given back as 'returned'), the card refund of what is left at deletion and
  -- expiry are the moves still to come; their reasons are allowed now.
  "reason" text NOT NULL CHECK ("reason" IN ('cancel_refund', 'closure_refund', 'closure_bonus', 'spent', 'returned',
    'refunded_to_card', 'expired')),
  "booking_id" uuid REFERENCES "bookings"("id") ON DELETE SET NULL,
  "order_id" uuid REFERENCES "orders"("id") ON DELETE SET NULL,
  -- One entry a refund: a retried cancel can never credit twice.
  "refund_id" uuid UNIQUE REFERENCES "refunds"("id") ON DELETE SET NULL,
  -- Credit that comes in lasts three years; a spend or a return has none of its own.
  "expires_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "credit_entries_user_idx" ON "credit_entries" ("user_id", "created_at");
