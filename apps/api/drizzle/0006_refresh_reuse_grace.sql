-- Refresh reuse grace (issue 14, decision 0005): a rotated token remembers its successor, sealed
-- with a key derived from the rotated token itself, so only a holder of that token can be handed
-- the family's current one (several tabs, an answer lost on the way). The database alone opens nothing.
ALTER TABLE "refresh_tokens" ADD COLUMN "replaced_by" uuid;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "successor_sealed" text;
