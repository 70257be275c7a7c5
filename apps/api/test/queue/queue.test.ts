import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { passLocation, queuePass } from '../../src/modules/queue/queue-admission.service';
import { drawOrder } from '../../src/modules/queue/queue-draw';
import { createCustomers, reauthenticate, type TestCustomer } from '../helpers/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';

const NOW = new Date('2026-12-01T00:00:00Z'); // 11:00 AEDT in Sydney
/** Sales open at 11:30 AEDT; the line an hour before (so it is open at NOW). */
const OPENS_AT = new Date('2026-12-01T00:30:00Z');

function season(queue?: { opensMinutesBefore: number }) {
  const s = demoSeason(NOW);
  s.locations[0] = { ...s.locations[0]!, salesOpenAt: '2026-12-01T11:30', ...(queue ? { queue } : {}) };
  return s;
}

describe('the fair start: the line, the draw, admission by stock', () => {
  let t: TestApp;
  let other: TestApp;
  let clock: ManualClock;
  let families: TestCustomer[];
  let locationId: string;
  let sessions: string[];
  const url = () => `/api/v1/queue/${locationId}`;
  const join = (app: TestApp, who: TestCustomer) =>
    app.app.inject({ method: 'POST', url: url(), headers: who.headers });
  const ticket = (who: TestCustomer) => t.app.inject({ url: url(), headers: who.headers });
  const hold = (who: TestCustomer, slotId: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/bookings/reservation', headers: who.headers, payload: { slotId } });
  const fair = async () => (await t.app.inject({ url: `${url()}/fairness` })).json();
  /** Holds and joins nudge a pass of their own (50 ms later); let it finish, then run one here. */
  const settledPass = async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await passLocation(t.app, locationId);
  };

  beforeAll(async () => {
    clock = new ManualClock(NOW);
    // The clock jumps ten minutes below with families not polling: their places must not lapse (issue 55).
    const env = { QUEUE_RECONNECT_SECONDS: '3600' };
    t = await createTestApp(env, clock);
    // A second API instance on the same database, for "across processes".
    other = await createTestApp(env, clock, undefined, { databaseUrl: t.databaseUrl });
    await loadSeason(t.db, season({ opensMinutesBefore: 60 }), NOW);
    families = await createCustomers(t.db, t.app.idTokens, 7);
    const loc = (await t.app.inject({ url: '/api/v1/common/locations', headers: families[0]!.headers })).json()
      .items[0];
    locationId = loc.id;
    // Two sessions left on sale at this location: the stock admission follows.
    const { rows } = await t.db.execute(sql`
      select id from slots where location_id = ${locationId}::uuid and kind = 'session'
        and start_at > ${'2026-12-03T00:00:00Z'}::timestamptz order by start_at limit 2`);
    sessions = rows.map((r) => r.id as string);
    await t.db.execute(sql`update slots set blocked = true where location_id = ${locationId}::uuid
      and kind = 'session' and id <> all(${`{${sessions.join(',')}}`}::uuid[])`);
    t.app.queueGate.forget();
    other.app.queueGate.forget();
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it('joins with one tap, idempotent, one ticket per account across processes', async () => {
    const [a, b] = await Promise.all([join(t, families[0]!), join(other, families[0]!)]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json()).toEqual({
      status: 'before_open',
      position: null,
      ahead: null,
      estimatedWaitSeconds: null,
      admittedUntil: null,
      opensAt: OPENS_AT.toISOString(),
      wants: null,
      reservation: null,
    });
    expect(b.json()).toEqual(a.json());
    expect((await join(t, families[0]!)).json()).toEqual(a.json());
    const count = await t.db.execute(
      sql`select count(*)::int as n from queue_tickets where user_id = ${families[0]!.id}::uuid`,
    );
    expect(count.rows[0]!.n).toBe(1);
    // Not in the line: 404.
    expect((await ticket(families[1]!)).statusCode).toBe(404);
    for (const f of families.slice(1, 5)) expect((await join(f === families[2] ? other : t, f)).statusCode).toBe(200);
    expect((await ticket(families[1]!)).json().status).toBe('before_open');
  });

  it(
    'publishes the seed hash when the line opens and only the hash before the draw; holds are still ' +
      'SALES_NOT_OPEN',
    async () => {
      const f = await fair();
      expect(f.seedHash).toMatch(/^[0-9a-f]{64}$/);
      expect(f.seed).toBeNull();
      expect(f.drawnAt).toBeNull();
      expect(f.entrants).toHaveLength(5);
      expect((await hold(families[0]!, sessions[0]!)).json().code).toBe('SALES_NOT_OPEN');
      // The drop's report is public from the draw on.
      expect((await t.app.inject({ url: `${url()}/report` })).statusCode).toBe(404);
    },
  );

  it('draws once at the instant, whichever processes run the pass, in an order anyone can recompute', async () => {
    // Each entrant joined with its draw key (decision 0117); one from an older release has none: the draw keys it.
    const keyed = await t.db.execute(sql`select count(*)::int as n from queue_tickets where location_id =
      ${locationId}::uuid and draw_key is not null`);
    expect(keyed.rows[0]!.n).toBe(5);
    await t.db.execute(sql`update queue_tickets set draw_key = null where user_id = ${families[3]!.id}::uuid`);
    clock.set(OPENS_AT);
    families = await Promise.all(families.map((f) => reauthenticate(t.app.idTokens, f)));
    // Racing passes on both instances (and any pass a join nudged): the draw happens once.
    await Promise.all([
      passLocation(t.app, locationId),
      passLocation(other.app, locationId),
      passLocation(t.app, locationId),
    ]);
    // A pass takes the line's lock or skips: if an instance's own timer held it just then (it ran
    // before the clock moved, so it drew nothing), the next pass draws. Whichever draws, once.
    await expect
      .poll(async () => (await passLocation(t.app, locationId), (await fair()).drawnAt), { timeout: 10_000 })
      .toBe(OPENS_AT.toISOString());
    const first = await fair();
    expect(first.drawnAt).toBe(OPENS_AT.toISOString());
    expect(createHash('sha256').update(first.seed).digest('hex')).toBe(first.seedHash);
    expect(first.entrants).toEqual(drawOrder(first.seed, [...first.entrants].sort()));
    // A second pass later draws nothing again.
    clock.set(new Date(OPENS_AT.getTime() + 500));
    await queuePass(other.app);
    expect(await fair()).toEqual(first);
    const positions = (
      await t.db.execute(
        sql`select id, position, draw_key is not null as keyed from queue_tickets where location_id =
          ${locationId}::uuid order by line_key`,
      )
    ).rows;
    expect(positions.map((r) => r.id)).toEqual(first.entrants);
    // Decision 0117: the draw wrote no ticket, each entrant joined with its key.
    expect(positions.map((r) => [r.position, r.keyed])).toEqual(Array(5).fill([null, true]));
  });

  it('tools/check-queue-draw.mjs confirms the draw from the public fairness endpoint', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const script = fileURLToPath(new URL('../../../../tools/check-queue-draw.mjs', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [script, locationId, `${address}/api/v1`]);
    expect(stdout).toMatch(/^OK: 5 entrants in the published order; seed matches its hash/);
    expect(stdout).toMatch(/\nOK: report agrees; 3 admitted over 1 minute\(s\)/);
  });

  it('admits at most 1.5 × the free sessions; the others wait, told how many are ahead', async () => {
    const tickets = await Promise.all(families.slice(0, 5).map(async (f) => (await ticket(f)).json()));
    const admitted = tickets.filter((x) => x.status === 'admitted');
    expect(admitted).toHaveLength(3); // floor(1.5 × 2)
    const waiting = tickets.filter((x) => x.status === 'waiting').sort((x, y) => x.position - y.position);
    expect(waiting.map((x) => [x.position, x.ahead])).toEqual([
      [4, 0],
      [5, 1],
    ]);
    expect(admitted.every((x) => x.admittedUntil === new Date(OPENS_AT.getTime() + 10 * 60_000).toISOString())).toBe(
      true,
    );
    // The measured rate gives an honest estimate (3 admitted in the first half second).
    expect(waiting[0].estimatedWaitSeconds).toBeGreaterThanOrEqual(0);
  });

  it('refuses a hold without an admission and allows it with one; later arrivals join the back', async () => {
    const tickets = await Promise.all(families.slice(0, 5).map(async (f) => ({ f, x: (await ticket(f)).json() })));
    const notAdmitted = tickets.find((x) => x.x.status === 'waiting')!.f;
    const refused = await hold(notAdmitted, sessions[0]!);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('QUEUE_NOT_ADMITTED');
    const [a, b] = tickets.filter((x) => x.x.status === 'admitted').map((x) => x.f);
    expect((await hold(a!, sessions[0]!)).statusCode).toBe(201);
    expect((await hold(b!, sessions[1]!)).statusCode).toBe(201);
    const late = await join(t, families[5]!);
    expect(late.json()).toMatchObject({ position: 6 });
  });

  it('sold out for now when nothing is free; a freed session admits the next family', async () => {
    await settledPass();
    const waiting = await Promise.all(families.slice(0, 6).map(async (f) => ({ f, x: (await ticket(f)).json() })));
    const soldOut = waiting.filter((w) => w.x.status === 'sold_out');
    expect(soldOut).toHaveLength(3); // positions 4, 5 and the late arrival 6
    // Ten minutes on: the holds and the third admission lapse, two sessions come back.
    clock.set(new Date(OPENS_AT.getTime() + 10 * 60_000 + 1000));
    families = await Promise.all(families.map((f) => reauthenticate(t.app.idTokens, f)));
    await settledPass();
    const after = await Promise.all(
      soldOut.map(async (w) => (await ticket(families.find((f) => f.id === w.f.id)!)).json()),
    );
    expect(after.map((x) => x.status)).toEqual(['admitted', 'admitted', 'admitted']);
  });

  it("publishes the drop's report: the draw, admissions by local minute, admission to hold, sold out", async () => {
    const report = (await t.app.inject({ url: `${url()}/report` })).json();
    const drawn = await fair();
    expect(report).toMatchObject({
      final: false,
      seed: drawn.seed,
      seedHash: drawn.seedHash,
      entrants: drawn.entrants,
    });
    // 3 at the opening (11:30 AEDT), the three sold-out families ten minutes later.
    expect(report.admittedByMinute).toEqual([
      { minute: '2026-12-01T11:30', admitted: 3 },
      { minute: '2026-12-01T11:40', admitted: 3 },
    ]);
    // The two families held at once on the manual clock: 0.5 s after their admission.
    expect(report.heldWithinSeconds).toEqual({ p50: 0.5, p95: 0.5 });
    expect(report.soldOutAt).toBe(new Date(OPENS_AT.getTime() + 500).toISOString());
  });

  it('a location without a line sells at once while this line is live', async () => {
    const loc = (await t.app.inject({ url: '/api/v1/common/locations', headers: families[6]!.headers })).json()
      .items[1];
    const slot = (
      await t.db.execute(
        sql`select id from slots where location_id =
${loc.id}::uuid and kind = 'session' and start_at > ${'2026-12-03T00:00:00Z'}::timestamptz order by start_at limit 1`,
      )
    ).rows[0]!;
    expect((await hold(families[6]!, slot.id as string)).statusCode).toBe(201);
  });

  it('streams the ticket live: event: ticket at once, and on a change', async () => {
    const address = t.app.server.address() as { port: number };
    const stop = new AbortController();
    const res = await fetch(`http://127.0.0.1:${address.port}${url()}/live`, {
      headers: families[0]!.headers,
      signal: stop.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!/event: ticket\ndata: /.test(text)) text += (await reader.read()).value ?? '';
    expect(text).toMatch(/event: ticket\ndata: \{[^\n]*"status":"(admitted|closed|waiting|sold_out)"/);
    stop.abort();
    await reader.cancel().catch(() => {});
  });

  it('staff see the line and can pause it', async () => {
    const [staff] = await createCustomers(t.db, t.app.idTokens, 1, { staff: true });
    // A manager's (decision 0050): the account as the database has it, second factor enrolled.
    await t.db.execute(
      sql`update users set staff_role = 'manager', mfa_enrolled_at = now() where id = ${staff!.id}::uuid`,
    );
    const summary = await t.app.inject({ url: `/api/v1/staff/queue/${locationId}`, headers: staff!.headers });
    expect(summary.statusCode).toBe(200);
    expect(summary.json()).toMatchObject({ locationId, paused: false, freeSessions: 2, admitted: 3 });
    const paused = await t.app.inject({
      method: 'POST',
      url: `/api/v1/staff/queue/${locationId}/pause`,
      headers: staff!.headers,
    });
    expect(paused.json().paused).toBe(true);
    expect(
      (
        await t.app.inject({ method: 'POST', url: `/api/v1/staff/queue/${locationId}/resume`, headers: staff!.headers })
      ).json().paused,
    ).toBe(false);
    // Each writes its audit entry, naming the location (issue 48 item 5).
    const audited = (
      await t.db.execute(
        sql`select action, actor_kind, actor_id, before, after from audit_entries where action like 'queue.%' order
by seq`,
      )
    ).rows;
    expect(audited).toMatchObject([
      {
        action: 'queue.paused',
        actor_kind: 'staff',
        actor_id: staff!.id,
        before: { locationId, paused: false },
        after: { locationId, paused: true },
      },
      {
        action: 'queue.resumed',
        actor_kind: 'staff',
        actor_id: staff!.id,
        before: { locationId, paused: true },
        after: { locationId, paused: false },
      },
    ]);
    // A customer may not.
    expect(
      (await t.app.inject({ url: `/api/v1/staff/queue/${locationId}`, headers: families[0]!.headers })).statusCode,
    ).toBe(403);
  });
});
