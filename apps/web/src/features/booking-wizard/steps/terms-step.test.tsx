import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Location } from '@kringle/contracts/catalogue';
import { setLocation, setReservationData, toggleSlotType } from '../state/booking-slice';
import { POLICY_FIXTURE, SYDNEY_FIXTURE, wizardTestStore } from '../state/wizard-test-store';
import { TermsStep } from './terms-step';

const sydney = SYDNEY_FIXTURE;
const perth = {
  ...sydney,
  id: 'loc-2',
  name: 'Kringle Perth, Murray Street',
  suburb: 'Perth',
  timezone: 'Australia/Perth',
} satisfies Location;
const brisbane = {
  ...sydney,
  id: 'loc-3',
  name: 'Kringle Brisbane, Queen Street',
  suburb: 'Brisbane City',
  timezone: 'Australia/Brisbane',
} satisfies Location;

function renderStep(location: Location, startAt: string, policy = POLICY_FIXTURE) {
  const t = wizardTestStore({
    'GET /common/policy': policy,
    [`GET /booking-slot/${location.id}/slots/s1`]: {
      id: 's1',
      slotTypeId: 't1',
      kind: 'session',
      startAt,
      endAt: startAt,
      status: 'reserved',
    },
  });
  t.store.dispatch(setLocation(location));
  t.store.dispatch(toggleSlotType(location.slotTypes[0]!));
  t.store.dispatch(setReservationData({ holdId: 'h1', slotId: 's1', expiresAt: '2099-01-01T00:00:00.000Z' }));
  render(
    <Provider store={t.store}>
      <MemoryRouter>
        <TermsStep focusOnMount={false} />
      </MemoryRouter>
    </Provider>,
  );
  return t;
}

describe('TermsStep (Policy)', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-22T00:00:00.000Z') }));
  afterEach(() => vi.useRealTimers());

  it("spells out this session's reschedule and refund dates in the location's time", async () => {
    // Sun 6 Dec, 10:40 am AEDT.
    renderStep(sydney, '2026-12-05T23:40:00.000Z');
    expect(await screen.findByText(/Free reschedule until Sat 5 Dec, 10:40 am AEDT, up to twice/)).toBeInTheDocument();
    expect(screen.getByText(/Full refund if you cancel before Fri 4 Dec, 10:40 am AEDT/)).toBeInTheDocument();
    expect(screen.getByText('Sun 6 Dec, 10:40 am AEDT')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /full terms and conditions/ })).toHaveAttribute(
      'href',
      '/terms_and_conditions',
    );
  });

  it('uses the zone of the location (Perth has no daylight saving)', async () => {
    renderStep(perth, '2026-12-05T23:40:00.000Z');
    expect(await screen.findByText(/Free reschedule until Sat 5 Dec, 7:40 am AWST/)).toBeInTheDocument();
    expect(screen.getByText(/Full refund if you cancel before Fri 4 Dec, 7:40 am AWST/)).toBeInTheDocument();
  });

  it('names the zone from the time zone, not the suburb (issue 53 item 19)', async () => {
    renderStep(brisbane, '2026-12-05T23:40:00.000Z');
    expect(await screen.findByTestId('policy-dates')).toHaveTextContent('Times are Brisbane time (AEST).');
    expect(screen.getByTestId('policy-dates')).not.toHaveTextContent('Brisbane City');
  });

  it('says plainly when a deadline has passed', async () => {
    // 30 hours away: still movable, no longer refundable.
    renderStep(sydney, '2026-11-23T06:00:00.000Z');
    const noRefund = await screen.findByText(/less than 48 hours away, so if you cancel there is no refund/);
    expect(screen.getByText(/Free reschedule until Sun 22 Nov, 5:00 pm AEDT/)).toBeInTheDocument();
    // No ✓ beside "no refund" (issue 37 item 10): the alert mark instead.
    expect(noRefund.closest('li')?.querySelector('svg')?.getAttribute('data-icon')).toBe('alert');
  });

  it('states the refund cut-off the API says is in force, not a built-in one', async () => {
    const operator = { ...POLICY_FIXTURE, refundCutoffHours: 72, rescheduleLimit: 1 };
    // Sun 6 Dec, 10:40 am AEDT: 72 hours before is Thu 3 Dec.
    renderStep(sydney, '2026-12-05T23:40:00.000Z', operator);
    expect(await screen.findByText(/Full refund if you cancel before Thu 3 Dec, 10:40 am AEDT/)).toBeInTheDocument();
    expect(screen.getByText(/up to once, to another session/)).toBeInTheDocument();
  });

  it('says the configured cut-off once it has passed (72 hours, not 48)', async () => {
    // 60 hours away.
    renderStep(sydney, '2026-11-24T12:00:00.000Z', { ...POLICY_FIXTURE, refundCutoffHours: 72 });
    expect(await screen.findByText(/less than 72 hours away, so if you cancel there is no refund/)).toBeInTheDocument();
  });

  it('must be accepted to continue', async () => {
    renderStep(sydney, '2026-12-05T23:40:00.000Z');
    await screen.findByTestId('policy-dates');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: /accept the booking policy/ }));
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
  });
});
