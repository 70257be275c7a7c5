import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { describe, expect, it } from 'vitest';
import { goToStep, setLocation, setReservationData, toggleSlotType } from '../state/booking-slice';
import { askRelease, releaseAsked } from './release-ask';
import { ReleaseHoldDialog } from './release-hold-dialog';
import { SYDNEY_FIXTURE, wizardTestStore } from '../state/wizard-test-store';
import { stepIndex } from '../state/wizard-steps';

// Thu 10 Dec 2026, 1:00 pm in Sydney.
const SESSION = {
  id: 's1',
  slotTypeId: 't1',
  kind: 'session',
  startAt: '2026-12-10T02:00:00.000Z',
  endAt: '2026-12-10T02:10:00.000Z',
  status: 'reserved',
};

describe('Back asks before letting go (issue 37 item 2)', () => {
  it('names the held session, keeps it by default, and lets it go only when asked to', async () => {
    const t = wizardTestStore({
      'GET /booking-slot/loc-1/slots/s1': SESSION,
      'POST /bookings/reservation/h1/cancel': { id: 'h1', status: 'cancelled' },
    });
    t.store.dispatch(setLocation(SYDNEY_FIXTURE));
    t.store.dispatch(toggleSlotType(SYDNEY_FIXTURE.slotTypes[0]!));
    t.store.dispatch(
      setReservationData({ holdId: 'h1', slotId: 's1', expiresAt: new Date(Date.now() + 9 * 60_000).toISOString() }),
    );
    t.store.dispatch(goToStep(stepIndex('sessionTime')));
    render(
      <Provider store={t.store}>
        <ReleaseHoldDialog />
      </Provider>,
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    act(() => askRelease(stepIndex('bookingType')));
    expect(await screen.findByRole('heading', { name: 'Let go of Thu 10 Dec 1:00 pm?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Keep my session' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Keep my session' }));
    expect(releaseAsked()).toBeNull();
    expect(t.store.getState().booking.reservationData?.holdId).toBe('h1');

    act(() => askRelease(stepIndex('bookingType')));
    await userEvent.click(await screen.findByRole('button', { name: 'Let it go' }));
    expect(t.store.getState().booking.reservationData).toBeNull();
    expect(t.store.getState().booking.currentStep).toBe(stepIndex('bookingType'));
    await waitFor(() => expect(t.calls).toContain('POST /bookings/reservation/h1/cancel'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
