import { boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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

/**
 * Each check of the served payment page (migration 0038, decision 0098, PCI DSS 11.6.1): what it
 * saw and what differed. The newest row is the baseline of the next check.
 */
export const paymentPageChecks = pgTable('payment_page_checks', {
  id: uuid('id').primaryKey().defaultRandom(),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
  url: text('url').notNull(),
  /** sha256 of `observed` as canonical JSON: equal fingerprints, nothing changed. */
  fingerprint: text('fingerprint').notNull(),
  observed: jsonb('observed').$type<Record<string, unknown>>().notNull(),
  findings: jsonb('findings').$type<string[]>().notNull().default([]),
  alerted: boolean('alerted').notNull().default(false),
});
