/**
 * API.md "Accounts and auth" limits. Per e-mail they stay strict: they are what stops guessing at
 * one account. Per IP they are sized for a shopping centre's Wi-Fi or a carrier's shared address
 * on the morning bookings open, where hundreds of families share one address; the numbers and why
 * are in docs/decisions (per-ip-limits-for-shared-addresses).
 */
export const ACCOUNT_LIMITS = {
  register: { perIp: 300, perEmail: 5, window: '1 hour' },
  'sign-in': { perIp: 300, perEmail: 10, window: '1 minute' },
  'reset-password': { perIp: 100, perEmail: 3, window: '1 hour' },
} as const;

/**
 * The cookie endpoint (per IP only: it carries no e-mail). Not in API.md's table; its general 429
 * covers it. Each page load of a signed-in family costs one refresh, as it costs one app-check
 * challenge, so it gets the challenge's size. Refresh tokens are 256-bit, so this is not what keeps
 * them safe: it keeps a client replaying cookies in a loop off the database.
 */
export const SESSION_LIMITS = {
  refresh: { perIp: 600, window: '1 minute' },
} as const;

/** The app-check endpoints (per IP only: they carry no e-mail). */
export const APP_CHECK_LIMITS = {
  challenge: { perIp: 600, window: '1 minute' },
  exchange: { perIp: 300, window: '1 minute' },
} as const;
