import type { ItemType } from '@kringle/contracts/statuses';
import { GA_MEASUREMENT_ID } from './env';
import { isPaymentPage } from './payment-pages';

/**
 * Spec §7: the 24 analytics events, names exactly as given (two contain a space), and the
 * waitlist's three (issue 20). This is
 * shared infrastructure (in lib, not a feature) so every feature can record events without
 * importing another feature.
 */
export const ANALYTICS_EVENTS = [
  'login',
  'sign_up',
  'logout',
  'forgot_password',
  'password_reset',
  'resend_email_verification',
  'email_verification',
  'add_booking',
  'booking cancel',
  'booking continue',
  'sidebar',
  'book_now',
  'reschedule',
  'schedule_session',
  'reschedule_session',
  'package_view',
  'package_reschedule',
  'package_cancel',
  'view_cart',
  'view_item',
  'add_to_cart',
  'remove_from_cart',
  'begin_checkout',
  'purchase',
  // Issue 20, the waitlist (named like the spec's own).
  'waitlist_join',
  'waitlist_leave',
  'waitlist_offer_accept',
] as const;
export type AnalyticsEvent = (typeof ANALYTICS_EVENTS)[number];

export interface AnalyticsItem {
  item_id: string;
  item_name?: string;
  item_category?: ItemType;
  /** Dollars (GA4 convention), AUD. */
  price?: number;
  quantity?: number;
}

/** GA4 e-commerce parameters; values in dollars, always AUD (DESIGN.md). */
export interface EcommerceParams {
  currency: 'AUD';
  value: number;
  items: AnalyticsItem[];
  transaction_id?: string;
  /** The promo code the order was priced with (GA4's event-level coupon); `value` is then what was paid. */
  coupon?: string;
}

type EcommerceEvent = 'view_cart' | 'view_item' | 'add_to_cart' | 'remove_from_cart' | 'begin_checkout' | 'purchase';
export type PlainParams = Record<string, string | number | boolean | undefined>;
export type AnalyticsParams<E extends AnalyticsEvent> = E extends EcommerceEvent ? EcommerceParams : PlainParams;

export interface RecordedEvent {
  event: AnalyticsEvent;
  params: Record<string, unknown>;
  at: string;
}

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
    /** The no-op sink: what would have been sent, for tests and debugging. */
    __kringleAnalytics?: RecordedEvent[];
  }
}

export interface AnalyticsSink {
  send(event: AnalyticsEvent, params: Record<string, unknown>): void;
}

/** Records into window.__kringleAnalytics and sends nothing anywhere. */
export const memorySink: AnalyticsSink = {
  send(event, params) {
    window.__kringleAnalytics ??= [];
    window.__kringleAnalytics.push({ event, params, at: new Date().toISOString() });
  },
};

const gtagSink: AnalyticsSink = {
  send(event, params) {
    window.gtag?.('event', event, params);
  },
};

let sink: AnalyticsSink = memorySink;

const CARRY_KEY = 'kringle:analytics-carried';
const PENDING_KEY = 'kringle:analytics-pending';

/**
 * A payment page's events when GA4 is on: recorded as the no-op sink does, and kept in this tab's sessionStorage
 * as they happen (a 3-D Secure redirect leaves the page without our code running), for the next document that
 * loads gtag to send, in order. Its CSP allows no analytics host (decision 0098), so nothing is sent from it.
 */
const deferredSink: AnalyticsSink = {
  send(event, params) {
    memorySink.send(event, params);
    try {
      const pending = readList(PENDING_KEY);
      pending.push({ event, params, at: new Date().toISOString() });
      sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
    } catch {
      // storage full or blocked: this event reaches the record, not GA
    }
  },
};

/**
 * Loads GA4 when VITE_GA_MEASUREMENT_ID is set; otherwise keeps the observable no-op sink. Never in a document
 * opened on a payment page: there the events wait (deferredSink) for the first document after it, which sends them.
 */
export function initAnalytics(
  measurementId: string | undefined = GA_MEASUREMENT_ID,
  pathname = window.location.pathname,
): AnalyticsSink {
  if (!measurementId || isPaymentPage(pathname)) {
    sink = measurementId ? deferredSink : memorySink;
    window.__kringleAnalytics ??= takeList(CARRY_KEY);
    return sink;
  }
  // The record carried for the no-op sink is not wanted here; what a payment page kept for GA is.
  takeList(CARRY_KEY);
  const pending = takeList(PENDING_KEY);
  window.dataLayer ??= [];
  window.gtag = function gtag(...args: unknown[]) {
    // gtag.js reads the `arguments` object shape from dataLayer, not an array.
    // eslint-disable-next-line prefer-rest-params
    window.dataLayer!.push(arguments);
    void args;
  };
  window.gtag('js', new Date());
  window.gtag('config', measurementId, { send_page_view: true });
  for (const { event, params } of pending) window.gtag('event', event, params);
  const script = document.createElement('script');
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`;
  document.head.appendChild(script);
  sink = gtagSink;
  return sink;
}

/** Whether analytics leave for GA from some documents: a payment page is then left by a document of its own too. */
export const analyticsSent = (measurementId: string | undefined = GA_MEASUREMENT_ID): boolean => Boolean(measurementId);

/**
 * Before the app opens a payment page as a document of its own: what the no-op sink recorded goes with it (in this
 * tab's sessionStorage), so the record of the visit is whole, as it is when nothing reloads.
 */
export function carryRecordedEvents(): void {
  try {
    if (window.__kringleAnalytics?.length) sessionStorage.setItem(CARRY_KEY, JSON.stringify(window.__kringleAnalytics));
  } catch {
    // storage full or blocked: the record starts afresh
  }
}

function readList(key: string): RecordedEvent[] {
  const stored = sessionStorage.getItem(key);
  const list: unknown = stored ? JSON.parse(stored) : [];
  return Array.isArray(list) ? (list as RecordedEvent[]) : [];
}

function takeList(key: string): RecordedEvent[] {
  try {
    const list = readList(key);
    sessionStorage.removeItem(key);
    return list;
  } catch {
    return [];
  }
}

export function setAnalyticsSink(next: AnalyticsSink): void {
  sink = next;
}

/** Records one analytics event. Never throws: analytics must not break a booking. */
export function track<E extends AnalyticsEvent>(
  event: E,
  ...params: E extends EcommerceEvent ? [AnalyticsParams<E>] : [AnalyticsParams<E>?]
): void {
  try {
    sink.send(event, { ...(params[0] ?? {}) });
  } catch {
    // ignore
  }
}
