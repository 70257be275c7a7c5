-- Issue 40, the fair start (decision 0053). A location whose sales open at a set time may put a
-- line in front of the opening: it opens `queue_opens_minutes_before` minutes before
-- `sales_open_at` (0: no line, the opening instant alone decides, decision 0025).
ALTER TABLE "locations" ADD COLUMN "queue_opens_minutes_before" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- One line per location and opening. The seed is drawn when the line opens and only its SHA-256 is
-- shown until the draw; `drawn_at` is set once, by the one process whose conditional UPDATE wins.
CREATE TABLE "queue_lines" (
  "location_id" uuid PRIMARY KEY NOT NULL REFERENCES "locations"("id") ON DELETE cascade,
  "sales_open_at" timestamp with time zone NOT NULL,
  "seed" text NOT NULL,
  "seed_hash" text NOT NULL,
  "drawn_at" timestamp with time zone,
  "paused" boolean DEFAULT false NOT NULL,
  "closed_at" timestamp with time zone,
  -- Sessions free at the last admission pass: 0 tells waiting families "sold out for now".
  "free_sessions" integer DEFAULT 0 NOT NULL,
  -- Bumped on every change a ticket can see; live streams compare it.
  "version" bigint DEFAULT 0 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
-- A family's place: one per account and location. `position` is null until the draw (entrants) or
-- until the next pass puts a later arrival at the back.
CREATE TABLE "queue_tickets" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "location_id" uuid NOT NULL REFERENCES "locations"("id") ON DELETE cascade,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "status" text DEFAULT 'waiting' NOT NULL CHECK ("status" IN ('waiting', 'admitted', 'closed')),
  "in_draw" boolean DEFAULT false NOT NULL,
  "position" integer,
  "admitted_at" timestamp with time zone,
  "admitted_until" timestamp with time zone,
  "seq" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
  "joined_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "queue_tickets_one_per_account" ON "queue_tickets" USING btree ("location_id", "user_id");--> statement-breakpoint
CREATE INDEX "queue_tickets_line_idx" ON "queue_tickets" USING btree ("location_id", "status", "position");--> statement-breakpoint
CREATE INDEX "queue_tickets_user_idx" ON "queue_tickets" USING btree ("user_id");
