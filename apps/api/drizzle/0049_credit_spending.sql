-- Issue 52: account credit pays at checkout (decision 0111). An order's amount_cents stays its whole
-- total (goods after the promo, plus the donation), which receipts, GST and the reports read;
-- credit_cents is the part credit paid, the card paying amount_cents - credit_cents.
ALTER TABLE "carts" ADD COLUMN IF NOT EXISTS "credit_cents" integer DEFAULT 0 NOT NULL
  CHECK ("credit_cents" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "credit_cents" integer DEFAULT 0 NOT NULL
  CHECK ("credit_cents" >= 0 AND "credit_cents" <= "amount_cents");
