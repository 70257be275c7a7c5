import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Shared fixed-window counters for rate limiting across API processes (when no REDIS_URL). */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
});

/** App-check challenges already exchanged, so one solved challenge buys one token. */
export const appCheckUsedChallenges = pgTable('app_check_used_challenges', {
  signature: text('signature').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
