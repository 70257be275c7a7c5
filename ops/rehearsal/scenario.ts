import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Stripe from 'stripe';
import { sandboxKeys } from '@kringle/stripe-sandbox/stripe-sandbox';
import { ensureNginx, startBalancer, waitFor } from '../../bench/drop-day/nginx-balancer';
import { REPO_ROOT } from '../../bench/drop-day/processes';
import { appCheckToken } from '../../bench/drop-day/seed-data';
import { generateJwtKey } from '../../apps/api/src/config/secrets';
import { createDb } from '../../apps/api/src/db/client';
import { systemClock } from '../../apps/api/src/lib/clock';
import { IdTokens } from '../../apps/api/src/modules/accounts/id-tokens';
import { demoSeason } from '../../apps/api/src/modules/catalogue/demo-season';
import { loadSeason } from '../../apps/api/src/modules/catalogue/season.service';
import { currentRelease, releaseWithMigration, REHEARSAL_MIGRATION_SQL, startApi } from './api-host';
import { backUpAndRestore } from './backup';
import { Checks, some } from './checks';
import { runFamilies, type Family, type LoadResult } from './families';
import { adminQuery, createRolesAsDeployMdSays, startPostgresHost, type PostgresHost } from './postgres-host';
import { HOSTS, topologyOf, type Topology } from './topology';

/**
 * The rehearsal itself, run inside the load host's namespace by rehearsal.ts (which made the
 * network and removes it afterwards). Every server runs in its own host's namespace.
 */
const FAMILIES = 60;
const MAX_BOOKINGS = 5;
/** A 502/503 may reach a family only this long after a process dies; a stop (SIGTERM) drains, none then. */
const DISRUPTION_WINDOW_MS = 5_000;
const STRIPE_PORT = 12111;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const since = (t0: number) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

async function main() {
  const prefix = process.env.REHEARSAL_PREFIX!;
  const dir = process.env.REHEARSAL_DIR!;
  const topo = topologyOf(prefix);
  const logDir = path.join(dir, 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  const checks = new Checks();
  const t0 = Date.now();
  const step = (what: string) => console.log(`[${since(t0)}] ${what}`);

  step('PostgreSQL on the db host; roles and database as docs/deploy.md says');
  const db = startPostgresHost(topo, 'db', path.join(dir, 'db'));
  await createRolesAsDeployMdSays(db);

  step('Stripe sandbox on its own host, webhooks to nginx');
  const keys = sandboxKeys();
  const stripeUrl = `http://${HOSTS.stripe}:${STRIPE_PORT}`;
  startStripe(topo, keys, logDir);
  await waitFor(async () => (await fetch(`${stripeUrl}/v1/events`).catch(() => null)) !== null, 60_000, 'the sandbox');

  const env = apiEnv(db, await generateJwtKey(), keys, stripeUrl);
  step('two API hosts (release v1), started together: one migrates, the other waits on the lock');
  const v1 = currentRelease();
  const [api1, api2] = await Promise.all([
    startApi(topo, 'api1', v1, env, logDir),
    startApi(topo, 'api2', v1, env, logDir),
  ]);

  step('nginx with the deploy.md template on its host');
  const nginx = await ensureNginx();
  const nginxDir = path.join(dir, 'nginx');
  await startBalancer(nginx.bin, nginxDir, 80, [`${HOSTS.api1}:3000`, `${HOSTS.api2}:3000`], {
    listen: '80',
    url: `http://${HOSTS.nginx}`,
    spawn: (cmd, args, options) => topo.spawnIn('nginx', cmd, args, options),
  });

  step(`the season and ${FAMILIES} families`);
  const seed = await seedSeason(db, env.JWT_PRIVATE_KEY);
  const appCheck = await appCheckToken(`http://${HOSTS.nginx}`);

  step('load: families race for the same sessions and pay');
  const stop = new AbortController();
  const load = runFamilies({
    families: seed.families,
    sessions: seed.sessions,
    availabilityPath: seed.availabilityPath,
    basket: seed.basket,
    appCheck,
    stripe: { url: stripeUrl, publishableKey: keys.publishableKey },
    maxBookings: MAX_BOOKINGS,
    stop: stop.signal,
  });
  const at: Record<string, number> = {};
  await sleep(6_000);
  step('(a) api1 killed (SIGKILL)');
  at.kill = Date.now();
  await api1.kill();
  await sleep(8_000);
  step('(b) release v2 with a migration, rolling: the new one on api1 first, then api2 replaced');
  const v2 = releaseWithMigration(dir);
  at.release = Date.now();
  await startApi(topo, 'api1', v2, env, logDir);
  at.api1Ready = Date.now();
  await untilNginxSendsTo(nginxDir, HOSTS.api1, at.api1Ready);
  step(
    `    api1 (v2) ready after ${((at.api1Ready - at.release) / 1000).toFixed(1)} s, in nginx's rotation after ` +
      `${((Date.now() - at.api1Ready) / 1000).toFixed(1)} s more; api2 stopped (SIGTERM)`,
  );
  at.term = Date.now();
  await api2.stop();
  at.api2Stopped = Date.now();
  step(`    api2 drained and exited ${((at.api2Stopped - at.term) / 1000).toFixed(1)} s after its SIGTERM`);
  await startApi(topo, 'api2', v2, env, logDir);
  at.api2Ready = Date.now();
  await untilNginxSendsTo(nginxDir, HOSTS.api2, at.api2Ready);
  step('    api2 (v2) ready and in rotation');
  await sleep(2_000);
  stop.abort();
  const result = await load;
  at.loadEnd = Date.now();
  step(`load done: ${result.operations.length} requests, ${result.booked.length} checkouts`);

  const stripe = new Stripe(keys.secretKey, { host: HOSTS.stripe, port: STRIPE_PORT, protocol: 'http' });
  await checkLoad(checks, result, at);
  checkDrain(checks, result, nginxDir, at);
  await checkPayments(checks, db, stripe, result);
  checkNginx(checks, nginxDir, at);
  await checkRelease(checks, db);

  step('(c) backup, restore into a fresh PostgreSQL, the app on it');
  await backUpAndRestore({ topo, checks, db, dir, env, release: v2, logDir, result, seed, appCheck });

  step(`done in ${since(t0)}`);
  console.log(checks.summary());
  // The servers are the rehearsal.ts's to end (with their namespaces); this process is done.
  process.exit(checks.failed ? 1 : 0);
}

/** deploy.md's environment table, filled in for this network. */
function apiEnv(db: PostgresHost, jwtKey: string, keys: ReturnType<typeof sandboxKeys>, stripeUrl: string) {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: db.appUrl,
    MIGRATION_DATABASE_URL: db.ownerUrl,
    DATABASE_POOL_SIZE: '10',
    PUBLIC_URL: `http://${HOSTS.nginx}`,
    APP_ORIGINS: `http://${HOSTS.nginx}`,
    TRUST_PROXY: 'true',
    APP_CHECK_MODE: 'enforce',
    RATE_LIMIT_MODE: 'on',
    JOBS_ENABLED: 'true',
    // The web app is not built for this test (a CDN's job in deploy.md's terms).
    SERVE_WEB: 'false',
    // No mail server on this network: mail stays queued in the outbox, as during an SMTP outage.
    SMTP_URL: `smtp://${HOSTS.stripe}:2525`,
    STRIPE_SECRET_KEY: keys.secretKey,
    STRIPE_PUBLISHABLE_KEY: keys.publishableKey,
    STRIPE_WEBHOOK_SECRET: keys.webhookSecret,
    STRIPE_API_URL: stripeUrl,
    JWT_PRIVATE_KEY: jwtKey,
    APP_CHECK_SECRET: 'rehearsal-app-check-secret-0123456789abcdef',
    // The ATO's own ABN: valid, and nobody's invoice.
    SELLER_ABN: '51 824 753 556',
    VOUCHER_CODE_KEY: 'a-production-voucher-code-key-of-32-chars-or-more',
    LOG_LEVEL: 'info',
  };
}

function startStripe(topo: Topology, keys: ReturnType<typeof sandboxKeys>, logDir: string) {
  const fd = fs.openSync(path.join(logDir, 'stripe.log'), 'a');
  topo.spawnIn('stripe', process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(REPO_ROOT, 'apps/stripe-sandbox'),
    env: {
      PATH: process.env.PATH,
      STRIPE_SANDBOX_PORT: String(STRIPE_PORT),
      STRIPE_SANDBOX_HOST: HOSTS.stripe,
      STRIPE_SANDBOX_PUBLIC_URL: `http://${HOSTS.stripe}:${STRIPE_PORT}`,
      STRIPE_SANDBOX_SECRET_KEY: keys.secretKey,
      STRIPE_SANDBOX_PUBLISHABLE_KEY: keys.publishableKey,
      STRIPE_SANDBOX_WEBHOOK_SECRET: keys.webhookSecret,
      STRIPE_SANDBOX_WEBHOOK_URL: `http://${HOSTS.nginx}/api/v1/webhooks/stripe`,
    },
    stdio: ['ignore', fd, fd],
  });
  fs.closeSync(fd);
}

export interface Seed {
  families: Family[];
  sessions: string[];
  availabilityPath: string;
  basket: { packages: { id: string; quantity: number }[]; addOns: never[]; amount: number };
}

/** Two weeks of the demo season and verified families, through the app's own code as the runtime role. */
async function seedSeason(db: PostgresHost, jwtKey: string): Promise<Seed> {
  const { db: conn, pool } = createDb(db.appUrl, 2);
  try {
    const now = new Date();
    await loadSeason(conn, demoSeason(now, { days: 14 }), now);
    const idTokens = await IdTokens.create({
      privateKeyPem: jwtKey,
      issuer: 'kringle',
      audience: 'kringle-web',
      clock: systemClock,
    });
    const families: Family[] = [];
    for (let i = 0; i < FAMILIES; i++) {
      const id = randomUUID();
      const email = `family-${i}-${id.slice(0, 8)}@rehearsal.kringle.test`;
      await pool.query(
        `insert into users (id, email, password_hash, first_name, last_name, email_verified_at)
         values ($1, $2, 'not-a-real-hash', 'Rehearsal', $3, now())`,
        [id, email, `Family ${i}`],
      );
      const { idToken } = await idTokens.issue({ id, email, emailVerified: true, isStaff: false, staffRole: null });
      families.push({ id, email, authorization: `Bearer ${idToken}` });
    }
    // One centre's standard sessions from three days on (clear of the lead time and the refund cut-off).
    const sessions = await pool.query<{ id: string; location_id: string; slot_type_id: string; day: string }>(
      `select s.id, s.location_id, s.slot_type_id, (s.start_at at time zone l.timezone)::date::text as day
       from slots s join slot_types st on st.id = s.slot_type_id join locations l on l.id = s.location_id
       where s.kind = 'session' and st.slug = 'standard' and not s.blocked and s.start_at > now() + interval '3 days'
       order by l.sort_order, s.start_at limit ${FAMILIES * MAX_BOOKINGS}`,
    );
    const first = sessions.rows[0]!;
    const pkg = await pool.query<{ id: string; price_cents: number }>(
      'select id, price_cents from packages where slot_type_slugs is null order by sort_order limit 1',
    );
    return {
      families,
      sessions: sessions.rows.map((r) => r.id),
      availabilityPath:
        `/api/v1/booking-slot/${first.location_id}/available-slots?date=${first.day}&slotTypeId=` +
        `${first.slot_type_id}`,
      basket: { packages: [{ id: pkg.rows[0]!.id, quantity: 1 }], addOns: [], amount: pkg.rows[0]!.price_cents },
    };
  } finally {
    await pool.end();
  }
}

/** Every request answered once, errors only where a process died or stopped, one family per session. */
async function checkLoad(checks: Checks, result: LoadResult, at: Record<string, number>) {
  const ops = result.operations;
  checks.check(
    'every request got an answer (none hung, none given up)',
    ops.every((o) => o.final !== null) && ops.every((o) => o.attempts.every((a) => !a.error?.startsWith('no answer'))),
    `${ops.length} requests, ${ops.filter((o) => o.final === null).length} unanswered`,
  );
  checks.check('no family saw an unexpected answer', result.unexpected.length === 0, some(result.unexpected));
  const failedTries = failedTriesOf(result);
  const outside = failedTries.filter((a) => !(a.end >= at.kill! && a.end <= at.kill! + DISRUPTION_WINDOW_MS));
  checks.check(
    `5xx or dropped connections only within ${DISRUPTION_WINDOW_MS / 1000} s of the kill, each retried to an answer`,
    outside.length === 0 && failedTries.every((a) => a.status === null || [502, 503, 504].includes(a.status)),
    `${failedTries.length} failed tries (${some(
      failedTries.map((a) => `${a.kind} ${a.status ?? a.error}`),
      8,
    )}); ` + `outside the windows: ${some(outside)}`,
  );
  const holdsAfter = (from: number, to: number) =>
    ops.filter((o) => o.kind === 'hold' && o.final && o.attempts[0]!.start >= from && o.attempts[0]!.start < to).length;
  const duringKill = holdsAfter(at.kill!, at.release!);
  const duringRelease = holdsAfter(at.release!, at.api2Ready!);
  checks.check(
    'the race went on through the kill and the release',
    duringKill > 0 && duringRelease > 0,
    `holds answered with api1 dead: ${duringKill}, during the rolling release: ${duringRelease}`,
  );
  const twice = [...result.holdsBySession].filter(([, families]) => families.size > 1);
  checks.check(
    'no session held by two families (answers seen by the families)',
    twice.length === 0,
    `${result.holdsBySession.size} sessions held; held twice: ${some(twice.map(([s, f]) => [s, [...f]]))}`,
  );
}

const failedTriesOf = (result: LoadResult) =>
  result.operations.flatMap((o) =>
    o.attempts.filter((a) => a.status === null || a.status >= 500).map((a) => ({ kind: o.kind, ...a })),
  );

/**
 * api2's SIGTERM (decision 0093): it answered through its drain, each answer closing its
 * connection, so nginx never wrote a hold or a payment on a socket being closed. Not one 5xx or
 * dropped connection from the release on, for the families or anyone else (the sandbox's
 * webhooks). What api2 answered from its SIGTERM's second on is told, not judged: under load every
 * connection closes after its next answer, so the drain may be over within that second.
 */
function checkDrain(checks: Checks, result: LoadResult, nginxDir: string, at: Record<string, number>) {
  const tries = failedTriesOf(result).filter((a) => a.end >= at.release!);
  // One-second timestamps in the access log: from the second after the release began.
  const parsed = accessLog(nginxDir);
  const proxied = parsed.filter((p) => p.time >= at.release! + 1_000 && p.status >= 500);
  const api2 = `${HOSTS.api2}:3000`;
  const drained = parsed.filter(
    (p) => p.time >= Math.floor(at.term! / 1000) * 1000 && p.time < at.api2Stopped! && p.upstreams.at(-1) === api2,
  );
  checks.check(
    'no 5xx and no dropped connection during the rolling release (the stopped process drained)',
    tries.length === 0 && proxied.length === 0,
    `failed tries: ${some(tries.map((a) => `${a.kind} ${a.status ?? a.error}`))}; 5xx in nginx's access log: ` +
      `${proxied.length}; answered by ${api2} after its SIGTERM: ${drained.length}`,
  );
}

/** Every payment the sandbox took is a confirmed booking, and no session is booked twice (SQL). */
async function checkPayments(checks: Checks, db: PostgresHost, stripe: Stripe, result: LoadResult) {
  const succeeded = new Set(
    (
      await stripe.events.list({ type: 'payment_intent.succeeded', limit: 100 }).autoPagingToArray({ limit: 10_000 })
    ).map((e) => (e.data.object as Stripe.PaymentIntent).id),
  );
  const url = db.adminUrl('kringle');
  // Paid and confirmed, or cancelled by the family and refunded in full (once the refund's webhook is in).
  const unconfirmed = async () =>
    (
      await adminQuery<{ pi: string; order: string; booking: string; refunded: number; amount: number }>(
        url,
        `select o.payment_intent_id as pi, o.status as order, b.status as booking,
                o.refunded_cents as refunded, o.amount_cents as amount
         from orders o join bookings b on b.id = o.booking_id where o.payment_intent_id = any($1)`,
        [[...succeeded]],
      )
    ).filter(
      (r) =>
        !(r.order === 'paid' && r.booking === 'completed') && !(r.booking === 'cancelled' && r.refunded === r.amount),
    );
  // Webhooks that met the dead process are retried by the sandbox (2 s, 4 s, ...) and the
  // reconciliation job looks too: wait for them, then judge.
  let left = await unconfirmed();
  const deadline = Date.now() + 90_000;
  while (left.length && Date.now() < deadline) {
    await sleep(1_000);
    left = await unconfirmed();
  }
  const paidByFamilies = result.booked.filter((b) => b.paid);
  const [orders] = await adminQuery<{ n: number }>(
    url,
    'select count(*)::int as n from orders where payment_intent_id = any($1)',
    [[...succeeded]],
  );
  checks.check(
    'every payment that succeeded at Stripe is a confirmed booking, or cancelled and refunded in full (no lost ' +
      'payment)',
    succeeded.size > 0 &&
      orders!.n === succeeded.size &&
      left.length === 0 &&
      paidByFamilies.every((b) => succeeded.has(b.paymentIntentId)),
    `${succeeded.size} succeeded at the sandbox (${orders!.n} orders), ${paidByFamilies.length} seen by families, ` +
      `${result.booked.filter((b) => b.cancelled).length} cancelled by them; not settled: ${some(left)}`,
  );
  const completed = await adminQuery<{ pi: string | null }>(
    url,
    `select o.payment_intent_id as pi from bookings b join orders o on o.booking_id = b.id where b.status = ` +
      `'completed'`,
  );
  checks.check(
    'every confirmed booking was paid at Stripe',
    completed.every((r) => r.pi !== null && succeeded.has(r.pi)),
    `${completed.length} confirmed`,
  );
  const doubles = await adminQuery(
    url,
    `select slot_id, count(*)::int as n from bookings where status <> 'cancelled' group by slot_id having count(*) > 1`,
  );
  const mismatched = await adminQuery(
    url,
    `select b.id from bookings b join slots s on s.id = b.slot_id
     where b.status = 'completed' and s.booking_id is distinct from b.id`,
  );
  checks.check(
    'no session booked twice (SQL), and each confirmed booking owns its slot',
    doubles.length === 0 && mismatched.length === 0,
    `double: ${some(doubles)}; slot not the booking's: ${some(mismatched)}`,
  );
}

/** nginx marked the dead process and sent its requests to the other one. */
function checkNginx(checks: Checks, nginxDir: string, at: Record<string, number>) {
  const errors = fs.readFileSync(path.join(nginxDir, 'error.log'), 'utf8');
  const dead = `${HOSTS.api1}:3000`;
  checks.check(
    "nginx marked the killed process's upstream as down (max_fails)",
    errors.split('\n').some((l) => l.includes('upstream server temporarily disabled') && l.includes(dead)),
    `${errors.split('\n').filter((l) => l.includes(dead)).length} error-log lines about ${dead}`,
  );
  const parsed = accessLog(nginxDir);
  const rerouted = parsed.filter((p) => p.upstreams.length > 1 && p.upstreams[0] === dead && p.status < 500);
  // One-second timestamps: a second's margin either side.
  const servedByDead = parsed.filter(
    (p) => p.time > at.kill! + 1_000 && p.time < at.release! - 1_000 && p.upstreams.at(-1) === dead && p.status < 500,
  );
  checks.check(
    'nginx routed around the dead process',
    rerouted.length > 0 && servedByDead.length === 0,
    `${rerouted.length} requests tried ${dead} first and were answered by the other; ` +
      `answered by ${dead} while it was dead: ${servedByDead.length}`,
  );
}

/** The template's log_format: addr [time] "request" status bytes request_time upstream_addr(s) upstream_time(s) id=… */
function accessLog(nginxDir: string) {
  const file = path.join(nginxDir, 'access.log');
  const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  return lines.map((l) => {
    const m = /^\S+ \[([^\]]+)\] ".*" (\d{3}) \d+ \S+ (.*) id=\S+$/.exec(l);
    const upstreams = (m?.[3] ?? '')
      .split(' ')
      .filter((t) => t.includes(':'))
      .map((t) => t.replace(/,$/, ''));
    return { time: Date.parse(m?.[1] ?? ''), upstreams, status: Number(m?.[2]) };
  });
}

/**
 * deploy.md's rolling restart, step 2 waits for this as well as /ready: nginx's passive checks
 * skip a process for fail_timeout (10 s) after its last failure, so a process back from the dead
 * gets no request for up to 10 s after it is ready. Stopping the other one before then leaves
 * nginx no process to send to ("no live upstreams": 502 for everyone).
 */
async function untilNginxSendsTo(nginxDir: string, host: string, fromMs: number) {
  // The access log is buffered (flush=1s) and stamped to the second.
  const from = Math.floor(fromMs / 1000) * 1000;
  await waitFor(
    async () => {
      // Requests of our own, as an operator's probe would be: the families' load may have paused (on a
      // fast host every session was booked 6 s after the kill, and nothing else reached nginx).
      await Promise.all([1, 2].map(() => fetch(`http://${HOSTS.nginx}/api/v1/health`).catch(() => null)));
      return accessLog(nginxDir).some((p) => p.time >= from && p.upstreams.at(-1) === `${host}:3000` && p.status < 500);
    },
    30_000,
    `nginx to send requests to ${host}`,
  );
}

/** The release's migration ran once, under load, and the runtime role can use what it made. */
async function checkRelease(checks: Checks, db: PostgresHost) {
  const hash = createHash('sha256').update(REHEARSAL_MIGRATION_SQL).digest('hex');
  const url = db.adminUrl('kringle');
  const [row] = await adminQuery<{ applied: number; notes: number; grant: boolean; column: number }>(
    url,
    `select (select count(*)::int from drizzle.__drizzle_migrations where hash = $1) as applied,
            (select count(*)::int from rehearsal_release) as notes,
            has_table_privilege('kringle_app', 'rehearsal_release', 'INSERT') as grant,
            (select count(*)::int from information_schema.columns
             where table_name = 'bookings' and column_name = 'rehearsal_note') as column`,
    [hash],
  );
  checks.check(
    "the release's migration ran once, and the runtime role was granted its table",
    row!.applied === 1 && row!.notes === 1 && row!.grant && row!.column === 1,
    JSON.stringify(row),
  );
}

main().catch((err: unknown) => {
  console.error('rehearsal failed:', err);
  console.log('rehearsal: 0 passed, 1 failed');
  process.exit(1);
});
