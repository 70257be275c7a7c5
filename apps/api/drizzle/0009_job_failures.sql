-- A payment the reconciliation job gave up on (Stripe answered that the PaymentIntent does not
-- exist, or that the request can never succeed): why, and when. Retrying would only repeat it.
ALTER TABLE "orders" ADD COLUMN "reconcile_error" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reconcile_failed_at" timestamp with time zone;
