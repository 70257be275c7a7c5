-- Issue 52's charity line: a cart and its order keep the donation (outside GST) and, on the order,
-- the charity's name as the tax invoice prints it (CHARITY_NAME may change after the sale).
ALTER TABLE "carts" ADD COLUMN IF NOT EXISTS "donation_cents" integer DEFAULT 0 NOT NULL
  CHECK ("donation_cents" BETWEEN 0 AND 10000);--> statement-breakpoint
-- An order's amount_cents (what the card pays) includes it; the goods paid are amount_cents - donation_cents.
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "donation_cents" integer DEFAULT 0 NOT NULL
  CHECK ("donation_cents" BETWEEN 0 AND 10000 AND "donation_cents" <= "amount_cents");--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "donation_to" text;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_donation_names_charity" CHECK ("donation_cents" = 0 OR "donation_to" IS NOT NULL);
--> statement-breakpoint
-- The sales report counts the goods; donations apart (decision 0109). A refund comes out of the goods
-- first: the donation goes back only with the last of the goods, that is, with a full refund.
-- GST is one eleventh of the goods paid and of the goods refunded, never of a donation.
CREATE OR REPLACE VIEW "sale_facts_live" AS
SELECT o.id AS order_id, b.location_id, (o.paid_at AT TIME ZONE l.timezone)::date AS day, b.source AS channel,
  jsonb_path_query_array(o.items, '$[*] ? (@.type == "package" || @.type == "photo").name')::text AS packages,
  (o.amount_cents - o.donation_cents) AS gross_cents,
  ((2 * (o.amount_cents - o.donation_cents)::bigint + 11) / 22)::int AS gst_cents,
  least(coalesce(r.cents, 0), o.amount_cents - o.donation_cents)::int AS refunds_cents,
  ((2 * least(coalesce(r.cents, 0), o.amount_cents - o.donation_cents) + 11) / 22)::int AS refunds_gst_cents,
  o.kind,
  o.donation_cents,
  greatest(0, coalesce(r.cents, 0) - (o.amount_cents - o.donation_cents))::int AS donation_refunds_cents
FROM orders o
JOIN bookings b ON b.id = o.booking_id
JOIN locations l ON l.id = b.location_id
LEFT JOIN LATERAL (SELECT sum(amount_cents)::bigint AS cents FROM refunds WHERE order_id = o.id AND status = 'succeeded') r ON true
WHERE o.paid_at IS NOT NULL;--> statement-breakpoint
ALTER TABLE "sale_facts" ADD COLUMN IF NOT EXISTS "donation_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sale_facts" ADD COLUMN IF NOT EXISTS "donation_refunds_cents" integer DEFAULT 0 NOT NULL;
