import type { FastifyInstance } from 'fastify';
import type { LiveSnapshot } from '@kringle/contracts/live';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createPerson, signedInHeaders, type Person } from '../staff/staff-fixtures';

/** A route that fails as an unexpected bug would: a 500 through the one error handler. */
async function failingRoute(app: FastifyInstance) {
  app.get('/api/v1/test/fail', { config: { auth: 'public' } }, async () => {
    throw new Error('boom');
  });
}

/** errorsLast5Min (decision 0094): each process's 5xx, told to the others over PostgreSQL. */
describe('live 5xx count across API processes', () => {
  let one: TestApp;
  let two: TestApp;
  let manager: Person;
  const clock = new ManualClock();

  beforeAll(async () => {
    one = await createTestApp({}, clock, failingRoute);
    two = await createTestApp({}, clock, undefined, { databaseUrl: one.databaseUrl });
    manager = await createPerson(one.db, true, undefined, { role: 'manager', mfaEnrolled: true });
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  const errorsSeenBy = async (t: TestApp) => {
    const res = await t.app.inject({ url: '/api/v1/staff/live', headers: await signedInHeaders(t, manager) });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as LiveSnapshot).errorsLast5Min;
  };
  /** The figure as `t` gives it once it settles, read again after each 2 s the figures are kept. */
  const settle = async (t: TestApp, expected: number) => {
    let seen = await errorsSeenBy(t);
    for (let i = 0; seen !== expected && i < 4; i++) {
      await new Promise((r) => setTimeout(r, 2_100));
      seen = await errorsSeenBy(t);
    }
    return seen;
  };

  it("adds another process's 5xx to its own, and lets them go after 5 minutes", async () => {
    expect(await errorsSeenBy(two)).toBe(0);
    for (let i = 0; i < 3; i++) expect((await one.app.inject({ url: '/api/v1/test/fail' })).statusCode).toBe(500);
    expect(await settle(two, 3)).toBe(3);
    expect(await settle(one, 3)).toBe(3);
    // A 4xx is not an error of the server.
    expect((await one.app.inject({ url: '/api/v1/staff/live' })).statusCode).toBe(401);
    clock.advance(5 * 60_000 + 1_000);
    expect(await settle(one, 0)).toBe(0);
    expect(await settle(two, 0)).toBe(0);
  });
});
