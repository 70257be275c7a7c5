/**
 * `npm run bench:closure`: issue 35's closure budget (decision 0055): a manager closes a whole day
 * at a centre where 300 families are booked and paid, with the refund remedy, against the Stripe
 * sandbox; the closure must be done (every booking cancelled and refunded at Stripe) within 2
 * minutes. Meanwhile families keep reading available slots: an open-loop probe (paced-load.ts) at
 * BENCH_PROBE_RATE reads/s (200) measures them before the closure and while it runs; their budget
 * is the drop-day's for reads under load, p99 under 50 ms (the sign-in storm's probe).
 *
 * The data: the big brand (big-brand.ts, 150,000 bookings) and the demo season, plus a centre with
 * four Santa sets of 5-minute sessions on a day two days ahead, 300 of them booked, each paid by
 * card at the sandbox (a real PaymentIntent, so each refund really happens there). One built API
 * process (`node build.mjs` in apps/api first) with its jobs on, as production runs it. Writes
 * bench/reports/closure.md and exits non-zero when a budget fails.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { addDays, localDateOf } from '@kringle/contracts/dates';
import { createStripeSandbox, sandboxKeys } from '@kringle/stripe-sandbox/stripe-sandbox';
import { CARDS, payWithCard } from '../../apps/api/test/helpers/payments';
import { startBenchDatabase } from '../drop-day/bench-database';
import { runLoad, type LoadResult } from '../drop-day/load-generator';
import { benchApiEnv, REPO_ROOT, startProcesses } from '../drop-day/processes';
import { appCheckToken, availableSlotsReads, createCustomers } from '../drop-day/seed-data';
import { loadBigBrand } from './big-brand';

const FAMILIES = Number(process.env.BENCH_CLOSURE_FAMILIES ?? 300);
const PROBE_RATE = Number(process.env.BENCH_PROBE_RATE ?? 200);
const BUDGET_S = 120;
const READS_P99_MS = 50;
const SETS = 4;
const ZONE = 'Australia/Sydney';
const PORTS = { postgres: 4322, api: 4332, smtp: 4399 };
const API_DIR = path.join(REPO_ROOT, 'apps/api');
const load = (): string => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const { tmp, databaseUrl, db, endPool, season, jwtKey, idTokens, stop } = await startBenchDatabase(
  'closure',
  PORTS.postgres,
);
// Webhooks to the API only once the families have paid (the API is not up while they pay).
const sandbox = createStripeSandbox(sandboxKeys());
const stripeUrl = await sandbox.start();
try {
  const t0 = performance.now();
  await loadBigBrand(db);
  // The closing centre: four sets side by side, sessions every 5 minutes from 10:00, on one day.
  const day = addDays(localDateOf(new Date(), ZONE), 2);
  const perSet = Math.ceil(FAMILIES / SETS) + 2;
  const [centre] = (
    await db.execute(sql`
    insert into locations (slug, name, address, suburb, state, timezone, season_start, season_end, sort_order)
    values ('closure-centre', 'Bench Closure Centre', '1 Bench Street', 'Town', 'NSW', ${ZONE}, ${day}::date,
    ${day}::date, 1) returning id, name`)
  ).rows;
  await db.execute(sql`
    insert into slot_types (location_id, slug, name, description, duration_minutes)
    select ${centre!.id}::uuid, 'set-' || i, 'Santa set ' || i, 'Photos with Santa', 5 from generate_series(1,
    ${SETS}) i`);
  await db.execute(sql`
    insert into slots (location_id, slot_type_id, kind, start_at, end_at)
    select st.location_id, st.id, 'session', t, t + interval '5 minutes'
    from slot_types st cross join generate_series(0, ${perSet - 1}) n
    cross join lateral (select (${day}::date + time '10:00' + n * interval '5 minutes') at time zone ${ZONE} as t) s
    where st.location_id = ${centre!.id}::uuid`);
  const families = await createCustomers(db, idTokens, FAMILIES, 'closure');
  const slots = (
    await db.execute(
      sql`select id, slot_type_id from slots where location_id =
${centre!.id}::uuid order by start_at, slot_type_id limit ${FAMILIES}`,
    )
  ).rows;
  const stripe = new Stripe(sandbox.secretKey, sandbox.stripeClientOptions());
  const intentIds: string[] = [];
  for (const [i, family] of families.entries()) {
    const intent = await stripe.paymentIntents.create({ amount: 3995, currency: 'aud' });
    const paid = await payWithCard(sandbox, intent.client_secret!, CARDS.success);
    if (paid.status !== 'succeeded') throw new Error(`sandbox payment ${paid.status}`);
    intentIds.push(intent.id);
    const slot = slots[i]!;
    const items = JSON.stringify([
      {
        id: crypto.randomUUID(),
        type: 'package',
        name: 'Classic Print',
        quantity: 1,
        unitPriceCents: 3995,
        totalCents: 3995,
      },
    ]);
    await db.execute(sql`
      with b as (
        insert into bookings (reference, user_id, location_id, slot_id, slot_type_id, status, source, items,
        amount_cents, confirmed_at)
        values (${`CL-${i}`}, ${family.id}::uuid, ${centre!.id}::uuid, ${slot.id as string}::uuid,
        ${slot.slot_type_id as string}::uuid, 'completed', 'online', ${items}::jsonb, 3995, now())
        returning id, user_id, items
      ), o as (
        insert into orders (booking_id, user_id, status, items, amount_cents, paid_at, payment_intent_id)
        select id, user_id, 'paid', items, 3995, now(), ${intent.id} from b
      )
      update slots set booking_id = (select id from b) where id = ${slot.id as string}::uuid`);
  }
  console.log(
    `loaded in ${((performance.now() - t0) / 1000).toFixed(0)} s: the big brand, and ` +
      `${FAMILIES} families paid at ${centre!.name as string} on ${day}`,
  );
  const [manager] = (
    await db.execute(sql`
    insert into users (email, password_hash, first_name, last_name, email_verified_at, is_staff, staff_role,
    mfa_enrolled_at)
    values ('bench-manager@kringle.test', 'not-a-real-hash', 'Bench', 'Manager', now(), true, 'manager', now())
    returning id`)
  ).rows;
  const { idToken } = await idTokens.issue({
    id: manager!.id as string,
    email: 'bench-manager@kringle.test',
    emailVerified: true,
    isStaff: true,
    staffRole: 'manager',
  });
  const readers = await createCustomers(db, idTokens, 200, 'reader');
  await endPool();

  const base = `http://127.0.0.1:${PORTS.api}`;
  sandbox.setWebhookUrl(`${base}/api/v1/webhooks/stripe`);
  const env = {
    ...benchApiEnv({ databaseUrl, jwtKey, publicUrl: base, deadStripePort: 0, deadSmtpPort: PORTS.smtp }),
    STRIPE_SECRET_KEY: sandbox.secretKey,
    STRIPE_PUBLISHABLE_KEY: sandbox.publishableKey,
    STRIPE_WEBHOOK_SECRET: sandbox.webhookSecret,
    STRIPE_API_URL: stripeUrl,
  };
  const api = await startProcesses({
    name: 'api',
    script: 'dist/start.mjs',
    cwd: API_DIR,
    ports: [PORTS.api],
    env,
    readyPath: '/api/v1/ready',
    logDir: tmp,
  });
  try {
    const appCheck = await appCheckToken(base);
    const probe = (seconds: number) =>
      runLoad(
        {
          url: base,
          connections: 20,
          duration: seconds,
          overallRate: PROBE_RATE,
          requests: availableSlotsReads(readers, season.targets, appCheck),
        },
        tmp,
      );
    const loadBefore = load();
    const alone = await probe(10);
    const headers = { authorization: `Bearer ${idToken}`, 'x-app-check': appCheck, 'content-type': 'application/json' };
    const body = {
      locationId: centre!.id,
      from: `${day}T00:00`,
      to: `${addDays(day, 1)}T00:00`,
      reason: 'Santa is unwell',
      remedy: 'refund',
      confirm: centre!.name,
    };
    // The probe runs through the whole closure (it is long enough; the closure is timed on its own).
    const during = probe(60);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const loadAtStart = load();
    const started = performance.now();
    const res = await fetch(`${base}/api/v1/staff/closures`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': 'bench-closure' },
      body: JSON.stringify(body),
    });
    if (res.status !== 202) throw new Error(`closure answered ${res.status}: ${await res.text()}`);
    const { id } = (await res.json()) as { id: string };
    let closure: { status: string; total: number; done: number } = { status: 'running', total: 0, done: 0 };
    while (closure.status !== 'done' && performance.now() - started < 10 * 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      closure = (await (await fetch(`${base}/api/v1/staff/closures/${id}`, { headers })).json()) as typeof closure;
    }
    const seconds = (performance.now() - started) / 1000;
    const loadAtEnd = load();
    const readsDuring: LoadResult = await during;

    const check = (await import('../../apps/api/src/db/client')).createDb(databaseUrl, 1);
    const outcome = (
      await check.db.execute(sql`
      select count(*) filter (where b.status = 'cancelled')::int as cancelled,
        count(*) filter (where r.status = 'succeeded')::int as refunds_succeeded, count(r.id)::int as refunds,
        coalesce(sum(r.amount_cents) filter (where r.status = 'succeeded'), 0)::int as refunded_cents
      from bookings b left join refunds r on r.booking_id = b.id where b.location_id = ${centre!.id}::uuid`)
    ).rows[0]!;
    await check.pool.end();
    let atStripe = 0;
    for (const pi of intentIds) {
      const charge = sandbox.paymentIntent(pi)?.latest_charge;
      if (charge && sandbox.charge(charge)?.amount_refunded === 3995) atStripe++;
    }
    const closed =
      closure.status === 'done' && seconds < BUDGET_S && outcome.cancelled === FAMILIES && atStripe === FAMILIES;
    const readsOk = readsDuring.latencyMs.p99 < READS_P99_MS;
    const row = (name: string, r: LoadResult) =>
      `| ${name} | ${r.total} | ${r.latencyMs.p50.toFixed(1)} | ${r.latencyMs.p99.toFixed(1)} | ` +
      `${r.latencyMs.max.toFixed(0)} | ${JSON.stringify(r.statusCodes)} |`;
    const report = [
      `# Closure bench (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
      '',
      `\`npm run bench:closure\`: the big brand (150,000 bookings) and ` +
        `${FAMILIES} families booked and paid by card at the Stripe sandbox on one day at one centre ` +
        `(${SETS} Santa sets); a manager closes the day with the refund remedy. One API process, its jobs on. Load ` +
        `average (1, 5, 15 min): ` +
        `${loadBefore} before the probe alone, ${loadAtStart} at the closure's start, ${loadAtEnd} at its end.`,
      '',
      '| budget | target | measured | |',
      '|---|---|---|---|',
      `| closing the day: every booking cancelled and refunded at Stripe | under ` +
        (`${BUDGET_S} s | **${seconds.toFixed(1)} s** (${closure.done} of ${closure.total} handled; ` +
          `${outcome.cancelled} cancelled, ${outcome.refunds_succeeded} of ${outcome.refunds} refunds succeeded, ` +
          `$${(Number(outcome.refunded_cents) / 100).toFixed(2)}; ${atStripe} charges fully `) +
        `refunded at the sandbox) | ${closed ? 'pass' : 'FAIL'} |`,
      `| available-slots reads while it runs, p99 (open loop, ` +
        (`${PROBE_RATE}/s) | under ${READS_P99_MS} ms | **${readsDuring.latencyMs.p99.toFixed(1)} ms** | ` +
          `${readsOk ? 'pass' : 'FAIL'} |`),
      '',
      '| available-slots reads | requests | p50 ms | p99 ms | max ms | statuses |',
      '|---|---|---|---|---|---|',
      row('alone, just before (10 s)', alone),
      row('during the closure (60 s from 2 s before it)', readsDuring),
      '',
    ].join('\n');
    console.log(report);
    fs.mkdirSync(path.join(REPO_ROOT, 'bench/reports'), { recursive: true });
    fs.writeFileSync(path.join(REPO_ROOT, 'bench/reports/closure.md'), report);
    process.exitCode = closed && readsOk ? 0 : 1;
  } finally {
    await api.stop();
  }
} finally {
  await sandbox.stop();
  await stop();
}
