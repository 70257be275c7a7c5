import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** Every path of API.md is in the OpenAPI document generated from the route schemas. */
describe('OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('documents every route of the contract', async () => {
    const doc = (await t.app.inject('/api/v1/openapi.json')).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const has = (method: string, path: string) => Boolean(doc.paths[`/api/v1${path}`]?.[method]);
    const contract: [string, string][] = [
      ['get', '/health'],
      ['get', '/ready'],
      ['post', '/app-check/challenge'],
      ['post', '/app-check/exchange'],
      ['post', '/user'],
      ['post', '/auth/sign-in'],
      ['post', '/auth/refresh'],
      ['post', '/auth/sign-out'],
      ['get', '/user/me'],
      ['patch', '/user/me'],
      ['post', '/user/auth/email-verification'],
      ['post', '/user/auth/reset-password'],
      ['post', '/auth/action/check'],
      ['post', '/auth/action/verify-email'],
      ['post', '/auth/action/reset-password'],
      ['get', '/common/locations'],
      ['get', '/common/stripe-client-secret'],
      ['get', '/product/packages'],
      ['get', '/product/addons'],
      ['get', '/booking-slot/{id}/available-dates'],
      ['get', '/booking-slot/{id}/available-slots'],
      ['get', '/booking-slot/{id}/slots/{slotId}'],
      ['post', '/bookings/reservation'],
      ['get', '/bookings/reservation/{id}'],
      ['post', '/bookings/reservation/{id}/refresh'],
      ['post', '/bookings/reservation/{id}/cancel'],
      ['post', '/cart'],
      ['post', '/bookings/reservation/{id}/checkoutOrder'],
      ['get', '/bookings/upcoming-bookings'],
      ['get', '/bookings/past-bookings'],
      ['get', '/bookings/{id}'],
      ['post', '/bookings/{id}/continue-payment'],
      ['post', '/bookings/{id}/reschedule'],
      ['post', '/bookings/{id}/cancel'],
      ['get', '/bookings/{id}/calendar.ics'],
      ['get', '/orders/{bookingId}/orders'],
      ['get', '/orders/{bookingId}/orders/{orderId}'],
      ['get', '/orders/{bookingId}/orders/{orderId}/payment-receipt'],
      ['get', '/orders/{bookingId}/orders/{orderId}/refund-receipt'],
    ];
    expect(contract.filter(([m, p]) => !has(m, p)).map(([m, p]) => `${m.toUpperCase()} ${p}`)).toEqual([]);
    const reservation = doc.paths['/api/v1/bookings/reservation']!.post as { security?: unknown[] };
    expect(JSON.stringify(reservation.security)).toContain('idToken');
    expect(JSON.stringify(reservation.security)).toContain('appCheck');
  });
});
