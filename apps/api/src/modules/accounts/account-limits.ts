/**
 * API.md "Accounts and auth" limits. Per e-mail they stay strict: they are what stops guessing at
 * one account. Per IP they are sized for a shopping centre's Wi-Fi or a carrier's shared address
 * on the morning bookings open, where hundreds of families share one address; the numbers and why
 * are in docs/decisions/0022-per-ip-limits-for-shared-addresses.md.
 */
export const ACCOUNT_LIMITS = {
  register: { perIp: 300, perEmail: 5, window: '1 hour' },
  'sign-in': { perIp: 300, perEmail: 10, window: '1 minute' },
  'reset-password': { perIp: 100, perEmail: 3, window: '1 hour' },
} as const;

/**
 * Issue 36 (decision 0048). Sign-in: the strict count is per e-mail *and* address, so guessing
 * elsewhere cannot lock the owner out; per e-mail alone, past `pressure` attempts a minute every
 * attempt needs a fresh app-check proof (the web app fetches one and retries on its own), and only
 * `ceiling` an hour is a flat 429. One proof (X-App-Check token) pays for `perProof` sign-in
 * attempts, `perProofUnderPressure` while its e-mail is under pressure, and `perProof` registrations.
 */
export const SIGN_IN_PRICING = {
  pressure: { perEmail: 10, window: '1 minute' },
  ceiling: { perEmail: 1000, window: '1 hour' },
  perProof: 5,
  perProofUnderPressure: 1,
  proofWindow: '1 hour',
} as const;

export const REGISTER_PRICING = {
  /**
   * 30 a minute per address on top of 300 an hour: a shared address's opening burst fits, a script's 259 in 6 s does
   * not.
   */
  burst: { perIp: 30, window: '1 minute' },
  perProof: 3,
  proofWindow: '1 hour',
} as const;

/** The verification mail: once a minute per user (accounts service) and these per day. */
export const VERIFY_MAIL_LIMITS = { perUser: 10, perIp: 100, window: '1 day' } as const;

/**
 * An unverified account's change of address (decision 0068) sends a verification mail: it counts
 * against VERIFY_MAIL_LIMITS (the same counters as a re-send), and an address is sent at most this
 * many by changes, as registration limits it per e-mail.
 */
export const EMAIL_CHANGE_LIMITS = { perEmail: 5, window: '1 hour' } as const;

/**
 * The cookie endpoint (per IP only: it carries no e-mail). Not in API.md's table; its general 429
 * covers it. Every reload of a signed-in page costs a refresh, and on drop morning a carrier's
 * shared address may carry thousands of families (decision 0022), so the size is far above any
 * crowd: 100 a second. It stops one client's loop or flood, not families. Refresh tokens are
 * 256-bit, so this is not what keeps them safe (decision 0040).
 */
export const SESSION_LIMITS = {
  refresh: { perIp: 6000, window: '1 minute' },
} as const;

/**
 * The second sign-in step (decision 0050), limited like passwords: per IP as sign-in, and per
 * mfaToken (a token lives 5 minutes, and new ones need the password, itself limited per e-mail).
 */
export const MFA_LIMITS = { perIp: 300, perToken: 5, window: '5 minutes' } as const;

/** The app-check endpoints (per IP only: they carry no e-mail). */
export const APP_CHECK_LIMITS = {
  challenge: { perIp: 600, window: '1 minute' },
  exchange: { perIp: 300, window: '1 minute' },
} as const;
