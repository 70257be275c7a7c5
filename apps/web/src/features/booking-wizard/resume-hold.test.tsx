import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { selectActiveStep } from './booking-slice';
import { ResumeHoldOffer } from './resume-hold';
import { SYDNEY_FIXTURE, wizardTestStore } from './wizard-test-store';
import { stepIndex } from './wizard-steps';

const SLOT = '00000000-0000-4000-8000-0000000000a1';
const hold = (over: object = {}) => ({
  id: '00000000-0000-4000-8000-0000000000b1',
  slotId: SLOT,
  locationId: 'loc-1',
  status: 'active',
  expiresAt: new Date(Date.now() + 6 * 60_000).toISOString(),
  refreshesLeft: 2,
  bookingId: null,
  ...over,
});
const answers = (items: object[]) => ({
  'GET /bookings/reservation': { items },
  'GET /common/locations': { items: [SYDNEY_FIXTURE] },
  // Thu 10 Dec 2026, 1:00 pm in Sydney.
  [`GET /booking-slot/loc-1/slots/${SLOT}`]: { id: SLOT, slotTypeId: 't1', startAt: '2026-12-10T02:00:00.000Z', endAt: '2026-12-10T02:10:00.000Z', kind: 'session', status: 'reserved' },
});
const renderOffer = (store: ReturnType<typeof wizardTestStore>['store']) =>
  render(
    <Provider store={store}>
      <MemoryRouter>
        <ResumeHoldOffer />
      </MemoryRouter>
    </Provider>,
  );

describe('A hold that follows the family (issue 37 item 1)', () => {
  it('offers the live hold taken on another device and restores the wizard at Package, countdown running', async () => {
    const t = wizardTestStore(answers([hold()]));
    renderOffer(t.store);
    expect(await screen.findByRole('heading', { name: 'You are holding a session' })).toBeInTheDocument();
    expect(screen.getByText(/Thu 10 Dec, 1:00 pm AEDT at Kringle Sydney, Pitt Street, held for you for 6 minutes more/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Resume this booking' }));
    const state = t.store.getState();
    expect(state.booking.reservationData).toEqual({ holdId: hold().id, slotId: SLOT, expiresAt: expect.any(String) });
    expect(state.booking.location?.id).toBe('loc-1');
    expect(state.booking.slotType[0]?.id).toBe('t1');
    expect(selectActiveStep(state)).toBe(stepIndex('package'));
    expect(state.timer.endDate).toBe(state.booking.reservationData?.expiresAt);
    expect(screen.queryByRole('heading', { name: 'You are holding a session' })).not.toBeInTheDocument();
  });

  it('sends an unpaid checkout to its payment, and says nothing when nothing is held', async () => {
    const t = wizardTestStore(answers([hold({ status: 'checked_out', bookingId: '00000000-0000-4000-8000-0000000000c1' })]));
    renderOffer(t.store);
    expect(await screen.findByRole('heading', { name: 'Your booking is waiting for payment' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue payment' })).toHaveAttribute('href', '/bookings');
    const none = wizardTestStore(answers([]));
    const { container } = renderOffer(none.store);
    await new Promise((r) => setTimeout(r, 50));
    expect(none.calls).toContain('GET /bookings/reservation');
    expect(container.querySelector('#resume-hold-title')).toBeNull();
  });
});
