import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { aBooking, anOrder } from '../booking-fixture';
import { renderWithApi, type Call } from '../bookings-test-store';
import { PhotosButton } from './photos-button';
import { PhotosRoute, usePhotosBookingId } from './photos-route';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

const booking = aBooking({ photoCount: 3 });
const gallery = {
  items: [],
  included: 2,
  unlocked: 0,
  extraPhotoPriceCents: 900,
  expiresAt: '2027-01-25T00:00:00.000Z',
};

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{pathname + search}</output>;
}

/** My Bookings' part of it: the card's button, and the gallery when the address names one. */
function Page() {
  const id = usePhotosBookingId();
  return (
    <>
      <PhotosButton booking={booking} />
      {id && <PhotosRoute bookingId={id} />}
      <Where />
    </>
  );
}

const ui = (
  <Routes>
    <Route path="/bookings" element={<Page />} />
    <Route path="/bookings/:id/photos" element={<Page />} />
  </Routes>
);

function respond(call: Call) {
  if (call.path === `/bookings/${booking.id}`) return booking;
  if (call.path === `/bookings/${booking.id}/photos`) return gallery;
  if (call.path === `/orders/${booking.id}/orders`) return { items: [anOrder()] };
  throw new Error(`unexpected call ${call.method} ${call.path}`);
}

describe('the gallery at its own address (issue 51, decision 0108)', () => {
  it('the card’s button goes to /bookings/:id/photos with the tab; closing comes back, focus on it', async () => {
    const user = userEvent.setup();
    renderWithApi(ui, respond, '/bookings?tab=past');
    await user.click(screen.getByRole('button', { name: '3 photos' }));
    expect(screen.getByTestId('where')).toHaveTextContent(`/bookings/${booking.id}/photos?tab=past`);
    const dialog = await screen.findByRole('dialog', { name: 'Your photos' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/bookings?tab=past');
    await waitFor(() => expect(screen.getByRole('button', { name: '3 photos' })).toHaveFocus());
  });

  it('opened at the address, reads the booking; an unknown one is said and goes back to My Bookings', async () => {
    const { calls } = renderWithApi(ui, respond, `/bookings/${booking.id}/photos`);
    await screen.findByRole('dialog', { name: 'Your photos' });
    expect(calls.map((c) => c.path)).toContain(`/bookings/${booking.id}`);

    const missing = '0b6f1c1e-3c1a-4b7e-9a51-000000000000';
    renderWithApi(
      ui,
      (call) =>
        call.path === `/bookings/${missing}`
          ? new Response(JSON.stringify({ error: 'Booking not found.', code: 'NOT_FOUND' }), {
              status: 404,
              headers: { 'content-type': 'application/json' },
            })
          : respond(call),
      `/bookings/${missing}/photos`,
    );
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Booking not found.'));
    expect(screen.getAllByTestId('where').at(-1)).toHaveTextContent(/^\/bookings$/);
  });
});
