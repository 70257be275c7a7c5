import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { selectActiveStep, setKeptHold, setReservationData } from '../state/booking-slice';
import { ResumeHoldOffer } from './resume-hold';
import { SYDNEY_FIXTURE, wizardTestStore } from '../state/wizard-test-store';
import { stepIndex } from '../state/wizard-steps';

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
  [`GET /booking-slot/loc-1/slots/${SLOT}`]: {
    id: SLOT,
    slotTypeId: 't1',
    startAt: '2026-12-10T02:00:00.000Z',
    endAt: '2026-12-10T02:10:00.000Z',
    kind: 'session',
    status: 'reserved',
  },
});
const BOOKING = {
  id: '00000000-0000-4000-8000-0000000000c1',
  reference: 'KR-7K3Q9',
  location: { id: 'loc-1' },
  slot: { id: SLOT },
  slotType: { id: 't1' },
  items: [{ id: 'p1', type: 'package', quantity: 1, totalCents: 3995 }],
};
const payable = {
  [`GET /bookings/${BOOKING.id}`]: BOOKING,
  [`POST /bookings/${BOOKING.id}/continue-payment`]: {
    client_secret: 'pi_1_secret_2',
    expiresAt: new Date(Date.now() + 6 * 60_000).toISOString(),
    reservationId: hold().id,
  },
};
const renderOffer = (store: ReturnType<typeof wizardTestStore>['store']) =>
  render(
    <Provider store={store}>
      <MemoryRouter>
        <ResumeHoldOffer keptAtOpen={store.getState().booking.keptHoldId ?? null} />
      </MemoryRouter>
    </Provider>,
  );

describe('A hold that follows the family (issue 37 item 1)', () => {
  it('offers the live hold taken on another device and restores the wizard at Package, countdown running', async () => {
    const t = wizardTestStore(answers([hold()]));
    renderOffer(t.store);
    expect(await screen.findByRole('heading', { name: 'You are holding a session' })).toBeInTheDocument();
    expect(
      screen.getByText(/Thu 10 Dec, 1:00 pm AEDT at Kringle Sydney, Pitt Street, held for you for 6 minutes more/),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Resume this booking' }));
    const state = t.store.getState();
    expect(state.booking.reservationData).toEqual({ holdId: hold().id, slotId: SLOT, expiresAt: expect.any(String) });
    expect(state.booking.location?.id).toBe('loc-1');
    expect(state.booking.slotType[0]?.id).toBe('t1');
    expect(selectActiveStep(state)).toBe(stepIndex('package'));
    expect(state.timer.endDate).toBe(state.booking.reservationData?.expiresAt);
    expect(screen.queryByRole('heading', { name: 'You are holding a session' })).not.toBeInTheDocument();
  });

  it(
    'continues an unpaid checkout at the Payment step (a fresh client secret), and says nothing when nothing is ' +
      'held',
    async () => {
      const t = wizardTestStore({ ...answers([hold({ status: 'checked_out', bookingId: BOOKING.id })]), ...payable });
      renderOffer(t.store);
      expect(await screen.findByRole('heading', { name: 'Your booking is waiting for payment' })).toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: 'Continue payment' }));
      await waitFor(() => expect(selectActiveStep(t.store.getState())).toBe(stepIndex('payment')));
      expect(t.store.getState().booking.checkoutData).toEqual({
        bookingId: BOOKING.id,
        client_secret: 'pi_1_secret_2',
        message: 'Finish paying to confirm booking KR-7K3Q9.',
      });
      expect(t.calls).toContain(`POST /bookings/${BOOKING.id}/continue-payment`);
      const none = wizardTestStore(answers([]));
      const { container } = renderOffer(none.store);
      await new Promise((r) => setTimeout(r, 50));
      expect(none.calls).toContain('GET /bookings/reservation');
      expect(container.querySelector('#resume-hold-title')).toBeNull();
    },
  );

  it(
    'a hold whose release the server refused (the tab that lost to another tab’s checkout, issue 37 item 8) is ' +
      'resumed at once, not offered',
    async () => {
      const checkout = hold({ status: 'checked_out', bookingId: BOOKING.id });
      const t = wizardTestStore({ ...answers([checkout]), ...payable });
      // This tab held it, then let it go when another tab's checkout made it the booking's: the server refused the
      // release.
      t.store.dispatch(setReservationData({ holdId: checkout.id, slotId: SLOT, expiresAt: checkout.expiresAt }));
      t.store.dispatch(setReservationData(null));
      t.store.dispatch(setKeptHold(checkout.id));
      renderOffer(t.store);
      await waitFor(() => expect(selectActiveStep(t.store.getState())).toBe(stepIndex('payment')));
      expect(screen.queryByRole('heading', { name: 'Your booking is waiting for payment' })).not.toBeInTheDocument();
      expect(t.store.getState().booking.reservationData?.holdId).toBe(checkout.id);
    },
  );

  it(
    'a hold merely let go of (or let go of after the page opened) is offered, not taken back behind the ' + 'family',
    async () => {
      const t = wizardTestStore(answers([hold()]));
      renderOffer(t.store);
      t.store.dispatch(setReservationData({ holdId: hold().id, slotId: SLOT, expiresAt: hold().expiresAt }));
      t.store.dispatch(setReservationData(null));
      expect(await screen.findByRole('heading', { name: 'You are holding a session' })).toBeInTheDocument();
      expect(t.store.getState().booking.reservationData).toBeNull();
    },
  );
});
