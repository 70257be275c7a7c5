import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForwardClock, type ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { bearer, createSignedInUser } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * Issue 36, probe case 10: after the system clock was stepped back 2 h, a 1-minute sign-in block read "Try again in 3
 * hours".
 */
describe('fault: the system clock stepped back 2 h', () => {
  const time = { wall: Date.now(), mono: 0 };
  const clock = new ForwardClock(
    () => time.wall,
    () => time.mono,
  );
  let t: TestApp;
  beforeAll(async () => {
    // The app only calls now(); the test moves the clocks underneath instead of t.clock.
    t = await createTestApp({ RATE_LIMIT_MODE: 'on' }, clock as unknown as ManualClock);
  });
  afterAll(async () => t?.close());

  const signIn = () =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sign-in',
      remoteAddress: '10.1.2.3',
      payload: { email: 'stepped@example.com', password: 'Wrong-Password-1' },
    });

  it('a 1-minute sign-in block still says about a minute, and ends a minute later', async () => {
    for (let i = 0; i < 10; i++) expect((await signIn()).statusCode).toBe(401);
    time.wall -= 2 * 3600_000;
    const blocked = await signIn();
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(blocked.json().error).toMatch(/Try again in \d+ seconds?\./);
    time.wall += 61_000;
    time.mono += 61_000;
    expect((await signIn()).statusCode).toBe(401);
  });
});

/** The same probe: after −2 h a 10-minute hold lasted 2 h 10 min. */
describe('fault: the system clock stepped back 2 h while a session is held', () => {
  const time = { wall: Date.now(), mono: 0 };
  const clock = new ForwardClock(
    () => time.wall,
    () => time.mono,
  );
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, clock as unknown as ManualClock);
    // Two weeks: the demo's own season ends on Christmas Eve, with no session two days out from 22 December.
    await loadSeason(t.db, demoSeason(clock.now(), { days: 14 }), clock.now());
  });
  afterAll(async () => t?.close());

  it('the hold still lapses 10 minutes after it was taken: another family can hold the session then', async () => {
    const first = await createSignedInUser(t.app, t.db, 'holds-first@example.com', { verified: true });
    const second = await createSignedInUser(t.app, t.db, 'holds-second@example.com', { verified: true });
    const slotId = (
      await t.db.execute(
        sql`select id from slots where kind = 'session' and start_at > now() + interval '2 days' order by start_at
limit 1`,
      )
    ).rows[0]!.id as string;
    const hold = (who: { idToken: string }) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/bookings/reservation',
        headers: bearer(who.idToken),
        payload: { slotId },
      });
    expect((await hold(first)).statusCode).toBe(201);
    time.wall -= 2 * 3600_000;
    time.wall += 11 * 60_000;
    time.mono += 11 * 60_000;
    // Before: the process's "now" was 1 h 49 min before the hold's end.
    expect((await hold(second)).statusCode).toBe(201);
  });
});
