import { afterEach, describe, expect, it, vi } from 'vitest';
import { ANALYTICS_EVENTS, initAnalytics, setAnalyticsSink, track } from './analytics';

describe('analytics', () => {
  afterEach(() => {
    delete window.__kringleAnalytics;
    delete window.gtag;
    delete window.dataLayer;
    document.head.querySelectorAll('script').forEach((s) => s.remove());
  });

  it("has the 24 events of spec §7 and the waitlist's 3, names exact", () => {
    expect(ANALYTICS_EVENTS).toHaveLength(27);
    expect(new Set(ANALYTICS_EVENTS).size).toBe(27);
    expect(ANALYTICS_EVENTS.slice(24)).toEqual(['waitlist_join', 'waitlist_leave', 'waitlist_offer_accept']);
    expect(ANALYTICS_EVENTS).toContain('booking cancel');
    expect(ANALYTICS_EVENTS).toContain('booking continue');
  });

  it('without a measurement id records into the observable no-op sink', () => {
    initAnalytics(undefined);
    track('login', { method: 'password' });
    track('purchase', {
      currency: 'AUD',
      value: 89.95,
      items: [{ item_id: 'p1', quantity: 1 }],
      transaction_id: 'KR-1',
    });
    expect(window.__kringleAnalytics?.map((e) => e.event)).toEqual(['login', 'purchase']);
    expect(window.__kringleAnalytics?.[1]?.params).toMatchObject({ currency: 'AUD', value: 89.95 });
    expect(document.head.querySelector('script')).toBeNull();
  });

  it('with a measurement id loads gtag and sends events to it', () => {
    initAnalytics('G-TEST123');
    const script = document.head.querySelector('script');
    expect(script?.src).toContain('googletagmanager.com/gtag/js?id=G-TEST123');
    const gtag = vi.fn();
    window.gtag = gtag;
    track('booking cancel', { bookingId: 'b1' });
    expect(gtag).toHaveBeenCalledWith('event', 'booking cancel', { bookingId: 'b1' });
    expect(window.__kringleAnalytics).toBeUndefined();
  });

  it('loads no gtag in a document opened on a payment page, though a measurement id is set (issue 51)', () => {
    for (const page of ['/create-booking', '/bookings/b1/photos']) {
      initAnalytics('G-TEST123', page);
      expect(document.head.querySelector('script'), page).toBeNull();
    }
    track('begin_checkout', { currency: 'AUD', value: 39.95, items: [] });
    expect(window.__kringleAnalytics?.map((e) => e.event)).toEqual(['begin_checkout']);
  });

  it('keeps a payment page’s events for GA and sends them, once and in order, from the next document', () => {
    sessionStorage.clear();
    initAnalytics('G-TEST123', '/create-booking');
    track('add_to_cart', { currency: 'AUD', value: 39.95, items: [{ item_id: 'p1' }] });
    track('begin_checkout', { currency: 'AUD', value: 39.95, items: [{ item_id: 'p1' }] });
    expect(window.__kringleAnalytics?.map((e) => e.event)).toEqual(['add_to_cart', 'begin_checkout']);
    // The confirmation, loaded as a document of its own (or by Stripe's 3-D Secure return).
    delete window.__kringleAnalytics;
    initAnalytics('G-TEST123', '/success');
    const sent = (window.dataLayer ?? []).map((args) => Array.from(args as ArrayLike<unknown>));
    expect(sent.filter((a) => a[0] === 'event').map((a) => a[1])).toEqual(['add_to_cart', 'begin_checkout']);
    expect(sent.find((a) => a[1] === 'begin_checkout')?.[2]).toMatchObject({ currency: 'AUD', value: 39.95 });
    // A third document sends nothing again.
    delete window.dataLayer;
    initAnalytics('G-TEST123', '/bookings');
    expect((window.dataLayer ?? []).map((args) => (args as ArrayLike<unknown>)[0])).not.toContain('event');
  });

  it('keeps nothing for GA without a measurement id', () => {
    sessionStorage.clear();
    initAnalytics(undefined, '/create-booking');
    track('begin_checkout', { currency: 'AUD', value: 39.95, items: [] });
    expect(sessionStorage.getItem('kringle:analytics-pending')).toBeNull();
  });

  it('never throws, even when the sink does', () => {
    setAnalyticsSink({
      send: () => {
        throw new Error('blocked');
      },
    });
    expect(() => track('logout')).not.toThrow();
  });
});
