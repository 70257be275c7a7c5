import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPaymentPage, needsOwnDocument, PAYMENT_PAGES } from './payment-pages';

describe('payment pages (issue 51, decision 0098)', () => {
  it('are the inventory’s pages', () => {
    const file = path.resolve(import.meta.dirname, '../../../../ops/payment-page-scripts.json');
    expect([...PAYMENT_PAGES]).toEqual(JSON.parse(fs.readFileSync(file, 'utf8')).pages);
  });

  it('match the wizard and a booking’s photos, not the pages around them', () => {
    expect(isPaymentPage('/create-booking')).toBe(true);
    expect(isPaymentPage('/bookings/1f2e/photos')).toBe(true);
    for (const other of ['/bookings', '/packages', '/create-booking/x', '/success', '/bookings/1f2e']) {
      expect(isPaymentPage(other), other).toBe(false);
    }
  });

  it('need a document of their own only when entered from another page’s document', () => {
    expect(needsOwnDocument('/create-booking', '/bookings')).toBe(true);
    expect(needsOwnDocument('/create-booking', '/create-booking')).toBe(false);
    expect(needsOwnDocument('/bookings', '/create-booking')).toBe(false);
    expect(needsOwnDocument('/packages', '/bookings')).toBe(false);
  });

  it('are left by a document of their own too when analytics go to GA', () => {
    expect(needsOwnDocument('/success', '/create-booking', true)).toBe(true);
    expect(needsOwnDocument('/bookings', '/bookings/1f2e/photos', true)).toBe(true);
    expect(needsOwnDocument('/create-booking', '/create-booking', true)).toBe(false);
    expect(needsOwnDocument('/packages', '/bookings', true)).toBe(false);
    expect(needsOwnDocument('/create-booking', '/bookings', true)).toBe(true);
  });
});
