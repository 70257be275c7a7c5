import path from 'node:path';
import { z } from 'zod';
import { API_ROOT } from '../lib/api-root';

/** The repository root, so `./.data` means the same folder whichever workspace starts the API. */
const REPO_ROOT = path.resolve(API_ROOT, '../..');

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const origins = z
  .string()
  .transform((v) => v.split(',').map((o) => o.trim()).filter(Boolean))
  .pipe(z.array(z.url().transform((u) => new URL(u).origin)).min(1));

/** Every environment variable the API reads, with its default (API.md "Configuration"). */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: int(0, 65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z.url().optional(),
  DATABASE_POOL_SIZE: int(1, 200).default(10),
  APP_ORIGINS: origins.optional(),
  PUBLIC_URL: z.url().optional(),
  APP_CHECK_MODE: z.enum(['enforce', 'monitor', 'off']).default('enforce'),
  APP_CHECK_SECRET: z.string().min(32).optional(),
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().min(3).default('Kringle <hello@kringle.test>'),
  STRIPE_SECRET_KEY: z.string().startsWith('sk_').optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().startsWith('pk_').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_').optional(),
  /** Where the SDK reaches Stripe: unset = Stripe itself; the local sandbox's URL on the embedded default. */
  STRIPE_API_URL: z.url().optional(),
  /** Per attempt; the SDK retries (same idempotency key) STRIPE_MAX_NETWORK_RETRIES times, so a request waits at most about (retries + 1) x this. */
  STRIPE_TIMEOUT_MS: int(100, 60_000).default(8_000),
  STRIPE_MAX_NETWORK_RETRIES: int(0, 5).default(2),
  /** How long a webhook gets before the reconciliation job asks Stripe about an unpaid order itself. */
  PAYMENT_RECONCILE_GRACE_SECONDS: int(1, 24 * 3600).default(120),
  PAYMENT_RECONCILE_INTERVAL_SECONDS: int(1, 3600).default(30),
  REDIS_URL: z.url().optional(),
  RATE_LIMIT_MODE: z.enum(['on', 'off']).default('on'),
  BRAND_NAME: z.string().min(1).max(60).default('Kringle'),
  SELLER_ABN: z.string().regex(/^\d{2} ?\d{3} ?\d{3} ?\d{3}$/, 'an ABN of 11 digits').default('12 345 678 901'),
  JWT_PRIVATE_KEY: z.string().min(1).optional(),
  JWT_ISSUER: z.string().min(1).default('kringle'),
  JWT_AUDIENCE: z.string().min(1).default('kringle-web'),
  BODY_LIMIT_BYTES: int(1024, 10 * 1024 * 1024).default(64 * 1024),
  TRUST_PROXY: bool.default(false),
  JOBS_ENABLED: bool.default(true),
  /** How long a process may reuse an availability answer (0: never); see docs/decisions/0012. */
  AVAILABILITY_CACHE_MS: int(0, 10_000).default(1000),
  /** How long the predecessor of a family's current refresh token still answers (0: never); see docs/decisions/0005. */
  REFRESH_REUSE_GRACE_SECONDS: int(0, 300).default(20),
  SERVE_WEB: bool.default(true),
  WEB_DIST_DIR: z.string().optional(),
  // Policy numbers (API.md "Policy").
  HOLD_MINUTES: int(1, 120).default(10),
  HOLD_REFRESHES: int(0, 10).default(2),
  LEAD_TIME_MINUTES: int(0, 24 * 60).default(60),
  RESCHEDULE_CUTOFF_HOURS: int(0, 24 * 30).default(24),
  RESCHEDULE_LIMIT: int(0, 10).default(2),
  REFUND_CUTOFF_HOURS: int(0, 24 * 30).default(48),
  MAX_UPCOMING_BOOKINGS: int(1, 100).default(5),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, 'APP_ORIGINS' | 'PUBLIC_URL'> {
  APP_ORIGINS: string[];
  PUBLIC_URL: string;
  /** True when the API runs on the embedded defaults (no DATABASE_URL given). */
  embedded: boolean;
}

export class ConfigError extends Error {}

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
  const publicUrl = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : `http://localhost:${env.PORT}`;
  return {
    ...env,
    DATA_DIR: path.resolve(REPO_ROOT, env.DATA_DIR),
    PUBLIC_URL: publicUrl,
    APP_ORIGINS: env.APP_ORIGINS ?? [publicUrl],
    embedded: !env.DATABASE_URL,
  };
}
