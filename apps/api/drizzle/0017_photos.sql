-- Issue 39, photos (decision 0054). How many digital photos a package or add-on includes (null:
-- none; -1: all of them), a booking's gallery (its clock: expiry, e-mails sent, photos bought) and
-- the photos themselves. A photo's files are `photos/<id>/original.jpg` and `preview.jpg` in the
-- photo store; the row is written after both files, so a row never points at a missing file.
ALTER TABLE "packages" ADD COLUMN "digital_photos" integer;--> statement-breakpoint
ALTER TABLE "add_ons" ADD COLUMN "digital_photos" integer;--> statement-breakpoint
CREATE TABLE "photo_galleries" (
  "booking_id" uuid PRIMARY KEY NOT NULL REFERENCES "bookings"("id") ON DELETE cascade,
  "first_upload_at" timestamp with time zone NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  -- Set when each e-mail is queued, so it goes once whatever the number of processes.
  "ready_sent_at" timestamp with time zone,
  "reminder_7_sent_at" timestamp with time zone,
  "reminder_1_sent_at" timestamp with time zone,
  -- Photos bought beyond what the packages include.
  "extra_photos" integer DEFAULT 0 NOT NULL,
  "deleted_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "photo_galleries_expiry_idx" ON "photo_galleries" USING btree ("expires_at") WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE TABLE "photos" (
  "id" uuid PRIMARY KEY NOT NULL,
  -- Null: in the unmatched tray of its location until a set assigns it.
  "booking_id" uuid REFERENCES "bookings"("id") ON DELETE cascade,
  "location_id" uuid NOT NULL REFERENCES "locations"("id"),
  "uploaded_by" uuid REFERENCES "users"("id") ON DELETE set null,
  "width" integer NOT NULL,
  "height" integer NOT NULL,
  "unlocked_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  -- Shooting order within a booking (uploads of one instant keep their order).
  "seq" bigint GENERATED ALWAYS AS IDENTITY NOT NULL
);--> statement-breakpoint
CREATE INDEX "photos_booking_idx" ON "photos" USING btree ("booking_id", "seq");--> statement-breakpoint
CREATE INDEX "photos_unmatched_idx" ON "photos" USING btree ("location_id", "seq") WHERE "booking_id" IS NULL;
