/**
 * Joins of the waitlist (issue 36, decision 0048's limits carried to the waitlist). WAITLIST_LIMIT
 * bounds what an account holds at once (3 live entries); these bound the churn, so a script
 * cannot join and leave lines all day to be first whenever an offer comes, and one address with
 * many accounts cannot fill every line. Every attempt counts, answered or refused.
 * - Per account: 10 an hour (a family joins its few lines and changes its mind a few times) and
 *   30 a day (the daily cap).
 * - Per address: 300 an hour, as registrations (decision 0022: a shopping centre's Wi-Fi or a
 *   carrier's shared address carries hundreds of families on a sold-out morning).
 * Past any, 429 RATE_LIMITED with Retry-After. Off with RATE_LIMIT_MODE=off.
 */
export const WAITLIST_JOIN_LIMITS = {
  perUser: { max: 10, window: '1 hour' },
  perUserDay: { max: 30, window: '1 day' },
  perIp: { max: 300, window: '1 hour' },
} as const;
