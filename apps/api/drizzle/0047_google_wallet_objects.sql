-- Issue 54: the bookings whose "Save to Google Wallet" link was given, and the booking version
-- (its updated_at) Google last got; the sync job sends each later change as a PATCH of the object.
CREATE TABLE IF NOT EXISTS "google_wallet_objects" (
  "booking_id" uuid PRIMARY KEY NOT NULL REFERENCES "bookings"("id") ON DELETE CASCADE,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "synced_version" timestamp with time zone NOT NULL
);
