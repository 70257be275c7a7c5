-- The successor of a rotated refresh token, sealed with a key derived from the rotated token itself
-- (decision 0005): lets its holder, within REFRESH_REUSE_GRACE_SECONDS, be handed the family's
-- current token. Null for current tokens and for rows rotated before this migration.
ALTER TABLE "refresh_tokens" ADD COLUMN "successor_sealed" text;
