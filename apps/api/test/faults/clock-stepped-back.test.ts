import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForwardClock, type ManualClock } from '../../src/lib/clock';
import { createTestApp, type TestApp } from '../test-app';

/** Issue 36, probe case 10: after the system clock was stepped back 2 h, a 1-minute sign-in block read "Try again in 3 hours". */
describe('fault: the system clock stepped back 2 h', () => {
  const time = { wall: Date.now(), mono: 0 };
  const clock = new ForwardClock(() => time.wall, () => time.mono);
  let t: TestApp;
  beforeAll(async () => {
    // The app only calls now(); the test moves the clocks underneath instead of t.clock.
    t = await createTestApp({ RATE_LIMIT_MODE: 'on' }, clock as unknown as ManualClock);
  });
  afterAll(async () => t?.close());

  const signIn = () => t.app.inject({ method: 'POST', url: '/api/v1/auth/sign-in', remoteAddress: '10.1.2.3', payload: { email: 'stepped@example.com', password: 'Wrong-Password-1' } });

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
