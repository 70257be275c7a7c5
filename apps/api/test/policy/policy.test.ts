import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';

describe('GET /api/v1/common/policy', () => {
  let defaults: TestApp;
  let operator: TestApp;

  beforeAll(async () => {
    defaults = await createTestApp();
    operator = await createTestApp({
      REFUND_CUTOFF_HOURS: '72',
      HOLD_MINUTES: '7',
      WAITLIST_LIMIT: '5',
      MAX_PEOPLE_PER_PHOTO: '6',
    });
  });
  afterAll(async () => Promise.all([defaults.close(), operator.close()]));

  it('answers the defaults in force, to anyone (no sign-in)', async () => {
    const res = await defaults.app.inject('/api/v1/common/policy');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      holdMinutes: 10,
      holdRefreshes: 2,
      leadTimeMinutes: 60,
      rescheduleCutoffHours: 24,
      rescheduleLimit: 2,
      refundCutoffHours: 48,
      maxUpcomingBookings: 5,
      waitlistOfferMinutes: 30,
      waitlistLimit: 3,
      maxPeoplePerPhoto: 8,
    });
  });

  it("answers the operator's numbers, not built-in ones", async () => {
    const body = (await operator.app.inject('/api/v1/common/policy')).json();
    expect(body).toMatchObject({
      refundCutoffHours: 72,
      holdMinutes: 7,
      waitlistLimit: 5,
      maxPeoplePerPhoto: 6,
      rescheduleCutoffHours: 24,
    });
  });

  it('sits behind the app check like every other /api/v1 route', async () => {
    const guarded = await createTestApp({ APP_CHECK_MODE: 'enforce' });
    try {
      expect((await guarded.app.inject('/api/v1/common/policy')).statusCode).toBe(401);
    } finally {
      await guarded.close();
    }
  });
});
