import path from 'node:path';
import { DEFAULT_POLICY } from '@kringle/contracts/policy';
import { z } from 'zod';
import { API_ROOT } from '../lib/api-root';
import { bool, int } from './env-values';
import { PLACEHOLDER_ABN, paymentSettings, sellerAbn } from './money-settings';
import { observabilitySettings } from './observability-settings';
import { queueSettings } from './queue-settings';
import { servedOrigins } from './served-origins';
import { smsSettings } from './sms-settings';
import { walletSettings } from './wallet-settings';
import { checkSettings } from './config-checks';

/** The repository root, so `./.data` means the same folder whichever workspace starts the API. */
const REPO_ROOT = path.resolve(API_ROOT, '../..');

const origins = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.url().transform((u) => new URL(u).origin)).min(1));

/**
 * Every environment variable the API reads, with its default (API.md "Configuration"); each spread is one area's
 * settings, from its file beside this one. Of several bad values, start-up names the first in this order.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: int(0, 65535).default(3000),
  /** Unset: 127.0.0.1 on the embedded default (a demo machine is not on the network), 0.0.0.0 with DATABASE_URL. */
  HOST: z.string().min(1).optional(),
  /** Unset: `warn` on the embedded default (the banner stays in view, issue 37), `info` with DATABASE_URL. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  /** A line per request (without a proxy). Unset: off on the embedded default, on with DATABASE_URL. */
  LOG_REQUESTS: bool.optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  /**
   * Embedded default only: the demo season lasts this many days from today instead of ending on Christmas Eve (tests
   * that need days far ahead).
   */
  DEMO_SEASON_DAYS: int(1, 366).optional(),
  DATABASE_URL: z.url().optional(),
  /** The tables' owner, for migrations; DATABASE_URL is then the runtime role that owns nothing (decision 0078). */
  MIGRATION_DATABASE_URL: z.url().optional(),
  DATABASE_POOL_SIZE: int(1, 200).default(10),
  APP_ORIGINS: origins.optional(),
  PUBLIC_URL: z.url().optional(),
  APP_CHECK_MODE: z.enum(['enforce', 'monitor', 'off']).default('enforce'),
  APP_CHECK_SECRET: z.string().min(32).optional(),
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().min(3).default('Kringle <hello@kringle.test>'),
  ...paymentSettings,
  REDIS_URL: z.url().optional(),
  RATE_LIMIT_MODE: z.enum(['on', 'off']).default('on'),
  BRAND_NAME: z.string().min(1).max(60).default('Kringle'),
  /** The charity a cart may give to (issue 52; e.g. "Starlight Children's Foundation"); unset, no donation line. */
  CHARITY_NAME: z.string().trim().min(2).max(80).optional(),
  /**
   * The key gift voucher codes are derived from (decision 0112): only their hashes are stored, and the
   * server derives a code again for its buyer's certificate. Required in production; changing it voids every code.
   */
  VOUCHER_CODE_KEY: z.string().min(32).optional(),
  /** Who families write to about their data (the privacy policy, decision 0058). */
  PRIVACY_CONTACT_EMAIL: z.email().default('privacy@kringle.test'),
  /** Tax invoices of deleted accounts keep the family's name this long (the ATO's five years), then lose it. */
  INVOICE_RETENTION_YEARS: int(1, 20).default(5),
  /** Accounts whose e-mail was never verified are deleted this many days after registration. */
  UNVERIFIED_ACCOUNT_DAYS: int(1, 3650).default(30),
  SELLER_ABN: sellerAbn,
  JWT_PRIVATE_KEY: z.string().min(1).optional(),
  JWT_ISSUER: z.string().min(1).default('kringle'),
  JWT_AUDIENCE: z.string().min(1).default('kringle-web'),
  BODY_LIMIT_BYTES: int(1024, 10 * 1024 * 1024).default(64 * 1024),
  /**
   * A client must have sent its headers within this, and its whole request within REQUEST_TIMEOUT_MS, or the socket is
   * closed (half-sent requests held sockets for minutes).
   */
  HEADERS_TIMEOUT_MS: int(1000, 120_000).default(10_000),
  REQUEST_TIMEOUT_MS: int(1000, 600_000).default(30_000),
  /**
   * Idle keep-alive; above the proxy's upstream keepalive_timeout (4 s in the nginx template), so
   * nginx never reuses a socket the API is closing.
   */
  KEEP_ALIVE_TIMEOUT_MS: int(1000, 600_000).default(72_000),
  /**
   * On SIGTERM, answers go on (each with Connection: close) up to this long before the idle sockets
   * left are closed; above the proxy's upstream keepalive_timeout (decision 0093).
   */
  SHUTDOWN_DRAIN_MS: int(0, 120_000).default(5_000),
  /** A socket silent this long is closed (live streams send a keep-alive every 25 s). */
  CONNECTION_TIMEOUT_MS: int(30_000, 3_600_000).default(120_000),
  /**
   * Open sockets per remote address (0: no cap); not applied with TRUST_PROXY=true, where every socket is the proxy's
   * and its limit_conn caps per client.
   */
  MAX_CONNECTIONS_PER_ADDRESS: int(0, 100_000).default(128),
  /**
   * Live-availability streams open at once per account and per address, per process (decision 0048); off with
   * RATE_LIMIT_MODE=off.
   */
  LIVE_STREAMS_PER_ACCOUNT: int(1, 1000).default(5),
  LIVE_STREAMS_PER_ADDRESS: int(1, 100_000).default(20),
  TRUST_PROXY: bool.default(false),
  JOBS_ENABLED: bool.default(true),
  /** How long a process may reuse an availability answer (0: never); see docs/decisions/0012. */
  AVAILABILITY_CACHE_MS: int(0, 10_000).default(1000),
  /** Availability reads answered in front of Fastify from what it already decided; see docs/decisions/0035. */
  ANSWER_LANE: bool.default(true),
  ...observabilitySettings,
  /** How long the predecessor of a family's current refresh token still answers (0: never); see docs/decisions/0005. */
  REFRESH_REUSE_GRACE_SECONDS: int(0, 300).default(20),
  SERVE_WEB: bool.default(true),
  /**
   * The daily check of the served payment page (PCI DSS 11.6.1, decision 0098): `off` where another
   * host serves the page.
   */
  PAYMENT_PAGE_CHECK: z.enum(['on', 'off']).default('on'),
  WEB_DIST_DIR: z.string().optional(),
  // Policy numbers (API.md "Policy").
  HOLD_MINUTES: int(1, 120).default(10),
  HOLD_REFRESHES: int(0, 10).default(2),
  /**
   * Abuse limits (decision 0059): more releases than this within the window earn a cool-down before the next hold (0:
   * off).
   */
  HOLD_COOLDOWN_RELEASES: int(0, 1000).default(3),
  HOLD_COOLDOWN_WINDOW_MINUTES: int(1, 24 * 60).default(10),
  /**
   * Sessions of one location's day held at once from one address (decision 0069; 0: no cap); off with
   * RATE_LIMIT_MODE=off.
   */
  HOLD_ADDRESS_LIMIT: int(0, 10_000).default(10),
  LEAD_TIME_MINUTES: int(0, 24 * 60).default(60),
  // The reschedule and refund rules' defaults are the contracts' (DEFAULT_POLICY), so the terms say the same.
  RESCHEDULE_CUTOFF_HOURS: int(0, 24 * 30).default(DEFAULT_POLICY.rescheduleCutoffHours),
  RESCHEDULE_LIMIT: int(0, 10).default(DEFAULT_POLICY.rescheduleLimit),
  REFUND_CUTOFF_HOURS: int(0, 24 * 30).default(DEFAULT_POLICY.refundCutoffHours),
  MAX_UPCOMING_BOOKINGS: int(1, 100).default(5),
  WAITLIST_LIMIT: int(0, 50).default(3),
  WAITLIST_OFFER_MINUTES: int(1, 24 * 60).default(30),
  /** A session over without a check-in marks its booking no-show (issue 56); off: staff mark them at the set. */
  AUTO_NO_SHOW: bool.default(false),
  /** How long a closure's offer of another session is held before it is refunded (decision 0055). */
  CLOSURE_OFFER_HOURS: int(1, 24 * 14).default(48),
  /** A closure's credit remedy adds this much of what was paid as bonus credit (issue 52). */
  CLOSURE_CREDIT_BONUS_PERCENT: int(0, 100).default(10),
  ...queueSettings,
  /** Children and adults in one photo (issue 18). */
  MAX_PEOPLE_PER_PHOTO: int(1, 30).default(8),
  /** Days after the session before who-is-coming details are deleted (decision 0021). */
  DETAILS_RETENTION_DAYS: int(0, 3650).default(30),
  /** Photos (issue 39): where the files live; `s3` needs the five S3_ variables below. */
  PHOTO_STORAGE: z.enum(['local', 's3']).default('local'),
  /** Days from a booking's first photo until every photo of it is deleted. */
  PHOTO_RETENTION_DAYS: int(1, 3650).default(60),
  /**
   * Pixels (width × height) an uploaded photo may have: checked from the JPEG's header before any
   * decoding, since a 1.5 MB file can decode to gigabytes (issue 48 item 7). 60 MP is above every
   * camera a set uses (a 45 MP full frame, a 50 MP phone); libvips's own ceiling is 268 MP.
   */
  PHOTO_MAX_PIXELS: int(1_000_000, 268_402_689).default(60_000_000),
  ...walletSettings,
  ...smsSettings,
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).optional(),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<
  Env,
  'HOST' | 'APP_ORIGINS' | 'PUBLIC_URL' | 'SELLER_ABN' | 'LOG_LEVEL' | 'LOG_REQUESTS' | 'VOUCHER_CODE_KEY'
> {
  VOUCHER_CODE_KEY: string;
  HOST: string;
  LOG_LEVEL: NonNullable<Env['LOG_LEVEL']>;
  LOG_REQUESTS: boolean;
  APP_ORIGINS: string[];
  SELLER_ABN: string;
  PUBLIC_URL: string;
  /** True when the API runs on the embedded defaults (no DATABASE_URL given). */
  embedded: boolean;
  // The waitlist and who's-coming features read these three by these names (API.md Additions).
  waitlistLimit: number;
  waitlistOfferMinutes: number;
  maxPeoplePerPhoto: number;
}

export class ConfigError extends Error {}

/** Public, so development codes are only as secret as the demo's passwords. */
const DEVELOPMENT_VOUCHER_KEY = 'kringle-development-voucher-code-key (not a secret)';

/**
 * Parses the environment once at start. A bad value stops start-up with one message that
 * names the variable, e.g. `Invalid configuration: PORT: Too big: expected number to be <=65535`.
 */

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset", as they do in most shells' `VAR= cmd`.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')}: ${issue.message}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(REPO_ROOT, env.DATA_DIR);
  // Pseudo file systems: Node's recursive mkdir spun at 100% CPU under /proc, deaf to SIGTERM (issue 36).
  if (/^\/(proc|sys|dev)(\/|$)/.test(dataDir) && !/^\/dev\/shm(\/|$)/.test(dataDir))
    throw new ConfigError(
      `Invalid configuration: DATA_DIR: ` +
        `${dataDir} is on a pseudo file system (/proc, /sys, /dev); choose a real folder`,
    );
  if (env.HEADERS_TIMEOUT_MS > env.REQUEST_TIMEOUT_MS)
    throw new ConfigError('Invalid configuration: HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS');
  checkSettings(env);
  const publicUrl = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : `http://localhost:${env.PORT}`;
  const host = env.HOST ?? (env.DATABASE_URL ? '0.0.0.0' : '127.0.0.1');
  return {
    ...env,
    HOST: host,
    LOG_LEVEL: env.LOG_LEVEL ?? (env.DATABASE_URL ? 'info' : 'warn'),
    LOG_REQUESTS: env.LOG_REQUESTS ?? Boolean(env.DATABASE_URL),
    DATA_DIR: dataDir,
    PUBLIC_URL: publicUrl,
    // Production names its origins; the embedded default allows every one it answers on (issue 53).
    APP_ORIGINS: env.APP_ORIGINS ?? (env.DATABASE_URL ? [publicUrl] : servedOrigins(publicUrl, host, env.PORT)),
    SELLER_ABN: env.SELLER_ABN ?? PLACEHOLDER_ABN,
    VOUCHER_CODE_KEY: env.VOUCHER_CODE_KEY ?? DEVELOPMENT_VOUCHER_KEY,
    embedded: !env.DATABASE_URL,
    waitlistLimit: env.WAITLIST_LIMIT,
    waitlistOfferMinutes: env.WAITLIST_OFFER_MINUTES,
    maxPeoplePerPhoto: env.MAX_PEOPLE_PER_PHOTO,
  };
}
