-- Issue 55: the drop's public report says when the line's location sold out (free sessions first at 0 after the draw).
ALTER TABLE "queue_lines" ADD COLUMN IF NOT EXISTS "sold_out_at" timestamptz;
