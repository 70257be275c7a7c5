import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFRESH_COOKIE } from '../../src/modules/accounts/refresh-cookie';
import { ID_TOKEN_TTL_SECONDS } from '../../src/modules/accounts/id-tokens';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { startSlotEventsListener } from '../../src/modules/sessions/slot-events.listener';
import { ManualClock } from '../../src/lib/clock';
import { bearer, createSignedInUser } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** Issue 36, probe case 2: one account opened 2,000 streams in 1.4 s, and streams outlived the token and a sign-out. */

let t: TestApp;
let base: string;
let locationId: string;
let stopListener: () => Promise<void>;
const opened: AbortController[] = [];

beforeAll(async () => {
  const now = new Date();
  t = await createTestApp({ RATE_LIMIT_MODE: 'on', LIVE_STREAMS_PER_ADDRESS: '7' }, new ManualClock(now));
  const season = demoSeason(now);
  await loadSeason(t.db, season, now);
  locationId = (await t.db.execute(sql`select id from locations limit 1`)).rows[0]!.id as string;
  const listener = startSlotEventsListener({
    state: t.app.slotState,
    clock: t.clock,
    log: t.app.log,
    databaseUrl: t.databaseUrl,
  });
  await listener.ready;
  stopListener = listener.stop;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const c of opened) c.abort();
  await stopListener?.();
  // fetch keeps its sockets alive; the server would wait KEEP_ALIVE_TIMEOUT_MS for them.
  t?.app.server.closeAllConnections();
  await t?.close();
});

async function open(idToken: string) {
  const controller = new AbortController();
  opened.push(controller);
  const res = await fetch(`${base}/api/v1/booking-slot/${locationId}/live`, {
    headers: bearer(idToken),
    signal: controller.signal,
  });
  return { res, controller };
}

/** True when the server ends the stream within `ms`. */
async function endsWithin(res: Response, ms: number): Promise<boolean> {
  const reader = res.body!.getReader();
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), ms));
  const ended = (async () => {
    for (;;) if ((await reader.read()).done) return true;
  })().catch(() => true);
  return Promise.race([ended, timeout]);
}

describe('live streams are capped per account and per address', () => {
  it(
    'the 6th stream of an account, and the 8th of an address (LIVE_STREAMS_PER_ADDRESS=7), answer 429 RATE_LIMITED ' +
      'with Retry-After',
    async () => {
      const a = await createSignedInUser(t.app, t.db, 'streams-a@example.com', { verified: true });
      const b = await createSignedInUser(t.app, t.db, 'streams-b@example.com', { verified: true });
      const first = await Promise.all(Array.from({ length: 6 }, () => open(a.idToken)));
      const statuses = first.map((s) => s.res.status).sort();
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      const refused = first.find((s) => s.res.status === 429)!.res;
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED' });

      expect((await open(b.idToken)).res.status).toBe(200);
      expect((await open(b.idToken)).res.status).toBe(200);
      expect((await open(b.idToken)).res.status).toBe(429);

      // A stream closed by its client frees its place.
      first.find((s) => s.res.status === 200)!.controller.abort();
      await new Promise((r) => setTimeout(r, 100));
      expect((await open(a.idToken)).res.status).toBe(200);
      for (const c of opened) c.abort();
    },
    20_000,
  );
});

describe('a stream ends with its token and its sign-out', () => {
  it("signing out ends the account's open streams", async () => {
    await new Promise((r) => setTimeout(r, 100));
    const c = await createSignedInUser(t.app, t.db, 'streams-c@example.com', { verified: true });
    const { res } = await open(c.idToken);
    expect(res.status).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sign-out',
      cookies: { [REFRESH_COOKIE]: c.refreshToken },
    });
    expect(out.statusCode).toBe(204);
    expect(await endsWithin(res, 3000)).toBe(true);
  }, 20_000);

  it('a stream ends when the ID token that opened it expires', async () => {
    const d = await createSignedInUser(t.app, t.db, 'streams-d@example.com', { verified: true });
    // The token has 1.5 s left by the app's clock.
    t.clock.advance(ID_TOKEN_TTL_SECONDS * 1000 - 1500);
    const { res } = await open(d.idToken);
    expect(res.status).toBe(200);
    expect(await endsWithin(res, 4000)).toBe(true);
  }, 20_000);
});
