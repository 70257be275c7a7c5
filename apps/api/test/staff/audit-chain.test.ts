import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { runtimeRoleProblems } from '../../src/db/roles';
import { ManualClock } from '../../src/lib/clock';
import { sealAuditEntries, verifyAuditChain } from '../../src/modules/audit/audit-chain.repository';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { startSandbox } from '../helpers/payments';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createPerson, signedInHeaders } from './staff-fixtures';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.resolve(API_DIR, '../../node_modules/.bin/tsx');

/**
 * Issue 48 item 6 (decision 0078): the API runs as a role that owns nothing, so it cannot undo
 * the trail's triggers; and the trail is hash-chained, so an owner who does is found out by
 * `npm run audit:verify`.
 */
describe('the audit trail, least privilege and its hash chain', () => {
  let t: TestApp;
  let sandbox: StripeSandbox;
  let runtime: pg.Client;
  let owner: pg.Client;
  let sessionIds: string[];
  let next = 0;
  /** The entry the chain test rewrites, and its reason before. */
  let rewritten: { id: string; reason: string | null };

  beforeAll(async () => {
    const s = await startSandbox();
    sandbox = s.sandbox;
    const clock = new ManualClock(new Date());
    t = await createTestApp(s.env, clock);
    await loadSeason(t.db, demoSeason(clock.now(), { days: 42 }), clock.now());
    sessionIds = (
      await t.db.execute(sql`select s.id from slots s join slot_types st on st.id = s.slot_type_id
        where s.kind = 'session' and st.slug = 'standard' and s.start_at > now() + interval '3 days' order by
        s.start_at limit 20`)
    ).rows.map((r) => r.id as string);
    runtime = new pg.Client({ connectionString: t.databaseUrl });
    owner = new pg.Client({ connectionString: t.ownerUrl });
    await runtime.connect();
    await owner.connect();
  });
  afterAll(async () => {
    await runtime?.end();
    await owner?.end();
    await t?.close();
    await sandbox?.stop();
  });

  const post = (url: string, who: TestCustomer, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: who.headers, payload });
  /** A hold, a cart and a checkout through the API (each writes audit entries as the runtime role). */
  const holdAndCheckout = async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const hold = await post('/api/v1/bookings/reservation', who, { slotId: sessionIds[next++]! });
    expect(hold.statusCode).toBe(201);
    const pkg = (
      await t.db.execute(
        sql`select id, price_cents from packages where slot_type_slugs is null order by price_cents limit 1`,
      )
    ).rows[0]!;
    const cart = await post('/api/v1/cart', who, {
      reservationId: hold.json().id,
      packages: [{ id: pkg.id, quantity: 1 }],
      addOns: [],
      amount: pkg.price_cents,
    });
    expect(cart.statusCode).toBe(201);
    const checkout = await post(`/api/v1/bookings/reservation/${hold.json().id}/checkoutOrder`, who, {
      cartId: cart.json().id,
    });
    expect(checkout.statusCode).toBe(201);
    return { who, bookingId: checkout.json().bookingId as string };
  };
  const refusedAsRuntime = async (statement: string) => {
    await expect(runtime.query(statement)).rejects.toThrow(/permission denied|must be owner|append-only/);
  };
  const verifyCli = () =>
    promisify(execFile)(TSX, ['src/cli/audit-verify.ts'], {
      cwd: API_DIR,
      env: { ...process.env, DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'silent' },
    }).then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
    );

  it(
    'the API runs as a role that owns nothing: it cannot switch the triggers off, rewrite or empty the trail, and ' +
      'the API still works',
    async () => {
      const { bookingId } = await holdAndCheckout();
      expect(await runtimeRoleProblems(runtime)).toEqual([]);
      // What a single-URL start warns about (decision 0078): the owner (here the superuser) could rewrite the trail.
      expect(await runtimeRoleProblems(owner)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/is a superuser$/),
          expect.stringMatching(/owns \d+ tables, views or sequences$/),
        ]),
      );
      expect((await runtime.query('select current_user as u')).rows[0].u).toBe('kringle_app');
      const id = (await runtime.query('select id from audit_entries where booking_id = $1 limit 1', [bookingId]))
        .rows[0].id as string;
      await refusedAsRuntime('set session_replication_role = replica');
      await refusedAsRuntime('alter table audit_entries disable trigger audit_entries_no_update');
      await refusedAsRuntime('alter table audit_entries disable trigger all');
      await refusedAsRuntime(`update audit_entries set reason = 'rewritten' where id = '${id}'`);
      await refusedAsRuntime(`update audit_entries set action = 'nothing', actor_email = null where id = '${id}'`);
      await refusedAsRuntime(`delete from audit_entries where id = '${id}'`);
      await refusedAsRuntime('truncate audit_entries');
      await refusedAsRuntime('drop table audit_entries');
      await refusedAsRuntime('update audit_chain set sealed_at = now()');
      await refusedAsRuntime('delete from audit_chain');
      await refusedAsRuntime('truncate audit_chain');
      // Nor may it make a table of its own.
      await refusedAsRuntime('create table mine (id int)');
      // The API goes on: another hold and checkout, and a manager reads the trail.
      await holdAndCheckout();
      const manager = await createPerson(
        t.db,
        true,
        { firstName: 'Mona', lastName: 'Manager' },
        { role: 'manager', mfaEnrolled: true },
      );
      const read = await t.app.inject({
        url: `/api/v1/staff/audit?bookingId=${bookingId}`,
        headers: await signedInHeaders(t, manager),
      });
      expect(read.statusCode).toBe(200);
      expect(read.json().items.length).toBeGreaterThan(0);
    },
  );

  it('a table a later migration makes is granted to the runtime role by the default privileges', async () => {
    await owner.query('create table later_feature (id int primary key)');
    try {
      await runtime.query('insert into later_feature values (1)');
      expect((await runtime.query('select count(*)::int as n from later_feature')).rows[0].n).toBe(1);
    } finally {
      await owner.query('drop table later_feature');
    }
  });

  it('sealers on several connections at once link every entry exactly once, in one unbroken chain', async () => {
    // 5,000 entries written as the API writes them (as the runtime role), while three sealers run.
    const writing = (async () => {
      for (let i = 0; i < 10; i++) {
        await runtime.query(
          `insert into audit_entries (actor_kind, action, season_version, after)
          select 'system', 'saveSeason', n, jsonb_build_object('n', n) from generate_series($1::int, $1::int + 499) n`,
          [i * 500],
        );
      }
    })();
    const pools = [0, 1, 2].map(() => createDb(t.databaseUrl, 1));
    let writingDone = false;
    void writing.finally(() => (writingDone = true));
    await Promise.all(
      pools.map(async ({ db }) => {
        while (!writingDone) await sealAuditEntries(db, 300);
        while ((await sealAuditEntries(db, 300)) > 0) {
          // Whatever is left once the writer stops.
        }
      }),
    );
    await writing;
    // A sealer that lost the lock on the last pass may leave a batch: one more pass.
    while ((await sealAuditEntries(t.db)) > 0) {
      // Seal the rest.
    }
    await Promise.all(pools.map(({ pool }) => pool.end()));
    const report = await verifyAuditChain(t.db);
    const entries = (await runtime.query('select count(*)::int as n from audit_entries')).rows[0].n as number;
    expect(report).toMatchObject({ broken: null, links: entries, unsealed: { count: 0 } });
  }, 60_000);

  it(
    'an untouched chain verifies clean; an entry changed by the owner behind the trigger is named by ' + 'audit:verify',
    async () => {
      await holdAndCheckout();
      while ((await sealAuditEntries(t.db)) > 0) {
        // Seal everything written so far.
      }
      const clean = await verifyAuditChain(t.db);
      expect(clean.broken).toBeNull();
      expect(clean.links).toBeGreaterThan(3);
      expect(clean.unsealed.count).toBe(0);
      const ok = await verifyCli();
      expect(ok.code, ok.out).toBe(0);
      expect(ok.out).toMatch(
        new RegExp(`Audit chain verified: ${clean.links} links, head link ${clean.head!.link} ${clean.head!.hash}`),
      );

      // An entry in the middle of the chain, rewritten by the owner with the triggers off.
      const target = (
        await owner.query(
          `select c.link::text, e.id, e.seq::text, e.reason from audit_chain c join audit_entries e on e.id = ` +
            `c.entry_id where c.link = 3`,
        )
      ).rows[0] as { link: string; id: string; seq: string; reason: string | null };
      rewritten = target;
      await owner.query('begin');
      await owner.query('set local session_replication_role = replica');
      await owner.query(`update audit_entries set reason = 'nothing to see' where id = $1`, [target.id]);
      await owner.query('commit');
      const report = await verifyAuditChain(t.db);
      expect(report.broken).toMatchObject({
        link: '3',
        entryId: target.id,
        seq: target.seq,
        problem: 'its entry was changed after it was sealed',
      });
      expect(report.links).toBe(2);
      const bad = await verifyCli();
      expect(bad.code).toBe(1);
      expect(bad.out).toContain(`Audit chain BROKEN at link 3: entry ${target.id} (seq ${target.seq}`);
    },
    60_000,
  );

  it('a deleted entry is named too, and account erasure (the one change allowed) keeps the chain whole', async () => {
    const { who } = await holdAndCheckout();
    while ((await sealAuditEntries(t.db)) > 0) {
      // Seal the new entries.
    }
    // The privacy erasure blanks the actor's e-mail as the runtime role: not covered by the hash.
    await runtime.query('update audit_entries set actor_email = null where actor_id = $1', [who.id]);
    const before = await verifyAuditChain(t.db);
    // The earlier test's rewrite is still the first break.
    expect(before.broken?.link).toBe('3');
    const last = (await owner.query('select entry_id, link::text from audit_chain order by link desc limit 1'))
      .rows[0] as { entry_id: string; link: string };
    await owner.query('begin');
    await owner.query('set local session_replication_role = replica');
    await owner.query('update audit_entries set reason = $2 where id = $1', [rewritten.id, rewritten.reason]);
    await owner.query('delete from audit_entries where id = $1', [last.entry_id]);
    await owner.query('commit');
    const report = await verifyAuditChain(t.db);
    expect(report.broken).toMatchObject({
      link: last.link,
      entryId: last.entry_id,
      problem: 'its entry is gone (deleted)',
    });
  });
});
