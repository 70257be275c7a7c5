/**
 * Rate limits (API.md "Limits"), shared by every API process: counters live in PostgreSQL
 * (rate_limit_counters, fixed windows) or in Redis when REDIS_URL is set (in PostgreSQL while Redis
 * cannot answer). RATE_LIMIT_MODE=off turns every limit into a no-op (load tests; createTestApp's
 * default).
 *
 * Add one or several limits to a route as preHandlers; each counts separately and the first one
 * exceeded answers 429 RATE_LIMITED with a Retry-After header:
 *
 *   import { byBodyEmail, byIp, rateLimit } from '../../plugins/rate-limit';
 *
 *   r.post('/auth/sign-in', {
 *     schema: { body: signInBody, response: {...} },
 *     preHandler: [
 *       rateLimit(app, { name: 'sign-in:ip', max: 10, window: '1 minute', key: byIp }),
 *       rateLimit(app, { name: 'sign-in:email', max: 10, window: '1 minute', key: byBodyEmail }),
 *     ],
 *   }, handler);
 *
 *   // one verification mail per 60 s per user (after the auth preHandler has set the user):
 *   rateLimit(app, { name: 'verify-mail:user', max: 1, window: '60 seconds', key: (req) => req.user?.id })
 *
 * `name` must be unique per limit (it namespaces the counter). `window` is milliseconds or
 * '<n> second(s)|minute(s)|hour(s)|day(s)'. `key` returns the bucket (null/undefined/'' skips this
 * limit for the request); keys are hashed before they are stored, so e-mails never sit in the table.
 * preHandlers run after validation, so `request.body` is already the parsed, valid body.
 */
import { createHash } from 'node:crypto';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { addressPlace } from '../lib/address-place';
import { errors, waitText } from '../lib/errors';
import type { Clock } from '../lib/clock';

export interface RateLimitRule {
  name: string;
  max: number;
  window: number | string;
  key: (request: FastifyRequest) => string | null | undefined;
}

export type RateLimitHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * The client's address (behind a proxy only with TRUST_PROXY=true, so it cannot be spoofed), an
 * IPv6 one by its /64 (addressPlace): one home's 2^64 addresses are one bucket.
 */
export const byIp = (request: FastifyRequest): string => addressPlace(request.ip);

/** The `email` field of the (already validated) JSON body, case-folded. */
export const byBodyEmail = (request: FastifyRequest): string | undefined => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : undefined;
};

/** The client's IP and the body's e-mail: guessing at one account from one place. */
export const byIpAndBodyEmail = (request: FastifyRequest): string | undefined => {
  const email = byBodyEmail(request);
  return email ? `${byIp(request)} ${email}` : undefined;
};

/** The X-App-Check token: what one solved proof of work may pay for. */
export const byAppCheckToken = (request: FastifyRequest): string | undefined => {
  const token = request.headers['x-app-check'];
  return typeof token === 'string' && token.trim() ? token.trim() : undefined;
};

const UNITS: Record<string, number> = { second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000 };

export function parseWindow(window: number | string): number {
  if (typeof window === 'number' && Number.isInteger(window) && window > 0) return window;
  const match = typeof window === 'string' ? /^\s*(\d+)\s*(second|minute|hour|day)s?\s*$/i.exec(window) : null;
  if (!match) throw new Error(`Bad rate-limit window: ${String(window)}`);
  return Number(match[1]) * UNITS[match[2]!.toLowerCase()]!;
}

/** "Try again in 45 seconds." / "in 12 minutes." / "in 2 hours." */
export function retryMessage(seconds: number): string {
  return `Too many attempts. Try again in ${waitText(seconds)}.`;
}

const hashKey = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 22);

/** The stored counter key of one limit's bucket (tests use it to start a window near its cap). */
export const bucketKey = (name: string, value: string) => `${name}:${hashKey(value)}`;

/** A preHandler enforcing one limit; see the top of this file. */
export function rateLimit(app: FastifyInstance, rule: RateLimitRule): RateLimitHandler {
  const count = rateCount(app, rule);
  return async (request) => {
    const over = await count(request);
    if (!over) return;
    throw errors.rateLimited(retryMessage(over.retryAfterSeconds), over.retryAfterSeconds);
  };
}

/**
 * Counts one hit of a limit and says whether its bucket is over the max, without refusing: for
 * limits that change what is asked of the client (a fresh app-check proof) rather than refuse it.
 * Always null with RATE_LIMIT_MODE=off.
 */
export function rateCount(
  app: FastifyInstance,
  rule: RateLimitRule,
): (request: FastifyRequest) => Promise<{ retryAfterSeconds: number } | null> {
  const windowMs = parseWindow(rule.window);
  if (!/^[\w:.-]{1,60}$/.test(rule.name)) throw new Error(`Bad rate-limit name: ${rule.name}`);
  if (app.config.RATE_LIMIT_MODE === 'off') return async () => null;
  if (!app.hasDecorator('createRateLimit'))
    throw new Error('rateLimitPlugin must be registered before routes that use rateLimit()');
  const bucket = (request: FastifyRequest) => {
    const value = rule.key(request);
    return value ? bucketKey(rule.name, value) : null;
  };
  const limiter = app.createRateLimit({
    max: rule.max,
    timeWindow: windowMs,
    keyGenerator: (request) => bucket(request) ?? '',
    // A store outage must not take the API down with it (it is logged by the store). Only
    // PostgreSQL failing gets here (Redis falls back to it), and the routes need PostgreSQL too.
    skipOnError: true,
  });
  return async (request) => {
    if (!bucket(request)) return null;
    const result = await limiter(request);
    if (result.isAllowed || !result.isExceeded) return null;
    return { retryAfterSeconds: Math.max(1, result.ttlInSeconds) };
  };
}

/** Atomic fixed window: one upsert per hit; a window that has ended starts again at 1. */
const INCR_SQL = `
  insert into rate_limit_counters as c (key, count, reset_at) values ($1, 1, $3)
  on conflict (key) do update set
    count = case when c.reset_at <= $2 then 1 else c.count + 1 end,
    reset_at = case when c.reset_at <= $2 then excluded.reset_at else c.reset_at end
  returning count, reset_at`;

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;
interface IncrStore {
  incr(key: string, callback: IncrCallback, timeWindow: number): void;
}

function postgresStore(pool: pg.Pool, clock: Clock, log: FastifyBaseLogger) {
  return class PostgresRateLimitStore {
    incr(key: string, callback: IncrCallback, timeWindow: number) {
      const now = clock.now();
      pool
        .query<{ count: number; reset_at: Date }>(INCR_SQL, [key, now, new Date(now.getTime() + timeWindow)])
        .then((res) => {
          const row = res.rows[0]!;
          callback(null, { current: row.count, ttl: Math.max(0, row.reset_at.getTime() - now.getTime()) });
          // Old buckets (one-off IPs and e-mails) are swept now and then by whichever process is here.
          if (Math.random() < 0.005) {
            pool.query('delete from rate_limit_counters where reset_at < $1', [now]).catch(() => {});
          }
        })
        .catch((err: Error) => {
          log.error({ err }, 'rate-limit store failed; request let through');
          callback(err);
        });
    }
    child() {
      return this;
    }
  };
}

/** The same fixed window in Redis: INCR, and the expiry set by the hit that opened the window. */
const REDIS_INCR = `
  local count = redis.call('INCR', KEYS[1])
  if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
  return {count, ttl}`;

/**
 * Redis, and PostgreSQL while Redis cannot answer: without the fallback a Redis outage turned
 * every limit off (sign-in guessing included) while the API itself kept working on PostgreSQL.
 * A bucket's count restarts on the other store at a switch, so a client may get up to twice its
 * limit across one; that is the price of not refusing everyone.
 */
function redisStore(redis: Redis, fallback: IncrStore, log: FastifyBaseLogger) {
  let failing = false;
  return class RedisRateLimitStore {
    incr(key: string, callback: IncrCallback, timeWindow: number) {
      (redis.eval(REDIS_INCR, 1, `kringle:rl:${key}`, timeWindow) as Promise<[number, number]>)
        .then(([current, ttl]) => {
          if (failing) log.info('rate-limit redis answers again; counting there');
          failing = false;
          callback(null, { current, ttl });
        })
        .catch((err: Error) => {
          if (!failing) log.error({ err }, 'rate-limit redis failed; counting in PostgreSQL meanwhile');
          failing = true;
          fallback.incr(key, callback, timeWindow);
        });
    }
    child() {
      return this;
    }
  };
}

/** Registers @fastify/rate-limit (no global limit) on the shared store; nothing when RATE_LIMIT_MODE=off. */
export const rateLimitPlugin = fp(async (app: FastifyInstance) => {
  if (app.config.RATE_LIMIT_MODE === 'off') return;
  if (app.config.REDIS_URL) {
    // No offline queue: while Redis is away a hit goes to PostgreSQL at once instead of waiting for a reconnect.
    const redis = new Redis(app.config.REDIS_URL, {
      maxRetriesPerRequest: 1,
      connectTimeout: 5000,
      enableOfflineQueue: false,
    });
    redis.on('error', (err) => app.log.error({ err }, 'rate-limit redis error'));
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
    // Up and counting before the first request (or known to be down), so one bucket does not start in both stores.
    await new Promise<void>((resolve) => {
      const done = () => (clearTimeout(timer), redis.off('ready', done), redis.off('error', done), resolve());
      const timer = setTimeout(done, 5000);
      redis.once('ready', done).once('error', done);
    });
    const Fallback = postgresStore(app.pool, app.clock, app.log);
    await app.register(fastifyRateLimit, { global: false, store: redisStore(redis, new Fallback(), app.log) });
  } else {
    await app.register(fastifyRateLimit, { global: false, store: postgresStore(app.pool, app.clock, app.log) });
  }
});
