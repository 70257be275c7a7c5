import { afterEach, beforeEach, vi } from 'vitest';
import type { Location, Slot } from '@kringle/contracts/catalogue';
import { setAnalyticsSink } from '../../../lib/analytics';
import { goToStep, setLocation, toggleSlotType } from '../state/booking-slice';
import { wizardTestStore } from '../state/wizard-test-store';
import { stepIndex } from '../state/wizard-steps';

// Shared by hold-actions.test.ts (taking, letting go, /expired) and hold-actions-rescheduling.test.ts.

const NOW = Date.parse('2026-12-06T00:00:00.000Z');
export const type = {
  id: 't1',
  name: 'Santa photos',
  description: 'A classic visit',
  durationMinutes: 10,
  allowsPets: false,
};
export const location: Location = {
  id: 'loc-1',
  name: 'Kringle Perth, Murray Street',
  address: '200 Murray Street Mall',
  suburb: 'Perth',
  state: 'WA',
  timezone: 'Australia/Perth',
  imageUrl: '',
  seasonStart: '2026-11-22',
  seasonEnd: '2027-01-02',
  salesOpenAt: null,
  slotTypes: [type],
};
export const slot: Slot = {
  id: 's1',
  slotTypeId: 't1',
  kind: 'session',
  startAt: '2026-12-06T02:00:00.000Z',
  endAt: '2026-12-06T02:10:00.000Z',
  status: 'available',
};
export const reservation = {
  id: 'h2',
  slotId: 's1',
  locationId: 'loc-1',
  status: 'active',
  expiresAt: '2026-12-06T00:10:00.000Z',
  refreshesLeft: 2,
  bookingId: null,
};
export const taken = () =>
  new Response(
    JSON.stringify({
      error: 'Sorry, that session was just taken. Please choose another time.',
      code: 'SLOT_UNAVAILABLE',
    }),
    { status: 409 },
  );

export function setup(routes: Record<string, unknown>) {
  const t = wizardTestStore(routes);
  t.store.dispatch(setLocation(location));
  t.store.dispatch(toggleSlotType(type));
  t.store.dispatch(goToStep(stepIndex('sessionTime')));
  return t;
}

/** The analytics events sent, with the clock at NOW; reset before each test of the describe that calls it. */
export function recordEachTest() {
  const sent: { event: string; params: Record<string, unknown> }[] = [];
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    sent.length = 0;
    setAnalyticsSink({ send: (event, params) => sent.push({ event, params }) });
  });
  afterEach(() => vi.useRealTimers());
  return sent;
}
