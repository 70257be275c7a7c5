-- Issue 55: a place survives a dropped connection for QUEUE_RECONNECT_SECONDS after the family's last poll or
-- stream (last_seen_at; null: since it joined); longer, the ticket is `lapsed`, and may rejoin at the back once.
ALTER TABLE "queue_tickets" ADD COLUMN IF NOT EXISTS "last_seen_at" timestamptz;--> statement-breakpoint
ALTER TABLE "queue_tickets" ADD COLUMN IF NOT EXISTS "rejoined" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "queue_tickets" DROP CONSTRAINT IF EXISTS "queue_tickets_status_check";--> statement-breakpoint
ALTER TABLE "queue_tickets" ADD CONSTRAINT "queue_tickets_status_check"
  CHECK ("status" IN ('waiting', 'admitted', 'closed', 'lapsed'));
