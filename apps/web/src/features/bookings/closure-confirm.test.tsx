import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { describe, expect, it, vi } from 'vitest';
import { aBooking } from './booking-fixture';
import { renderWithApi } from './bookings-test-store';
import { ClosureOffer } from './closure-offer';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const offer = {
  slotId: '6b7c8d9e-0f1a-4b2c-8d3e-4f5a6b7c8d9e',
  startAt: '2026-12-06T00:40:00.000Z',
  expiresAt: '2026-12-05T21:00:00.000Z',
  locationName: 'Sydney Harbourside',
  refundCents: 5995,
};
const closed = aBooking({ closure: { reason: 'Santa is unwell', offer } });

/** Issue 53 item 8: neither answer to a closure acts on one tap; the step before says exactly what happens. */
describe('ClosureOffer: the confirm step', () => {
  it('says the refund and what is let go, sends nothing on "Not yet", and refunds on "Yes"', async () => {
    const { calls } = renderWithApi(<ClosureOffer booking={closed} />, () => aBooking({ status: 'cancelled' }));
    await userEvent.click(screen.getByRole('button', { name: 'Refund me in full ($59.95)' }));
    const ask = screen.getByRole('alertdialog', { name: 'Refund $59.95?' });
    expect(within(ask).getByTestId('closure-confirm-words')).toHaveTextContent(
      'Your booking KR-7K3Q9 for Sun 6 Dec, 10:40 am AEDT is cancelled, and we let go of the session held for you on ' +
        'Sun 6 Dec, 11:40 am AEDT.',
    );
    expect(ask).toHaveTextContent('$59.95 goes back to the card you paid with, usually within 5 to 10 business days.');
    // The safe choice has the focus: an accidental Enter changes nothing.
    expect(within(ask).getByRole('button', { name: 'Not yet' })).toHaveFocus();
    await userEvent.click(within(ask).getByRole('button', { name: 'Not yet' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Refund me in full ($59.95)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes, refund $59.95' }));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      `/bookings/${closed.id}/closure/refund`,
    ]);
    // The card leaves Upcoming: what happened is said.
    await vi.waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith(
        'Booking KR-7K3Q9 is cancelled. $59.95 is on its way back to your card (allow 5 to 10 business days).',
      ),
    );
  });

  it('says the new time before moving, and that nothing is charged', async () => {
    const { calls } = renderWithApi(<ClosureOffer booking={closed} />, () => closed);
    await userEvent.click(screen.getByRole('button', { name: 'Move to this session' }));
    const ask = screen.getByRole('alertdialog', { name: 'Move to Sun 6 Dec, 11:40 am AEDT?' });
    expect(ask).toHaveTextContent(
      'Your booking KR-7K3Q9 moves from Sun 6 Dec, 10:40 am AEDT (closed) to Sun 6 Dec, 11:40 am AEDT at Sydney ' +
        'Harbourside.',
    );
    expect(ask).toHaveTextContent('Nothing is charged or refunded');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    await userEvent.click(within(ask).getByRole('button', { name: 'Yes, move my booking' }));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      `/bookings/${closed.id}/closure/accept`,
    ]);
    expect(await screen.findByRole('button', { name: 'Move to this session' })).toBeEnabled();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
