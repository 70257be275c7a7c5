-- Issue 52: a closure's third remedy, account credit with a bonus (CLOSURE_CREDIT_BONUS_PERCENT).
ALTER TABLE "closures" DROP CONSTRAINT IF EXISTS "closures_remedy_check";--> statement-breakpoint
ALTER TABLE "closures" ADD CONSTRAINT "closures_remedy_check" CHECK ("remedy" IN ('refund', 'offer_move', 'credit'));
