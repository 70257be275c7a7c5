import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { aBooking } from './booking-fixture';
import { renderWithApi } from './bookings-test-store';
import { ClosureOffer } from './closure-offer';

const offer = {
  slotId: '6b7c8d9e-0f1a-4b2c-8d3e-4f5a6b7c8d9e',
  startAt: '2026-12-06T00:40:00.000Z',
  expiresAt: '2026-12-05T21:00:00.000Z',
  locationName: 'Sydney Harbourside',
  refundCents: 6995,
};

/** Issue 35: the family's answer to a closure's offer, from My Bookings. */
describe('ClosureOffer', () => {
  it('says why and what is held, and accepts once confirmed', async () => {
    const { calls } = renderWithApi(
      <ClosureOffer booking={aBooking({ closure: { reason: 'Santa is unwell', offer } })} />,
      () => aBooking(),
    );
    expect(screen.getByRole('heading', { name: 'We had to close this session (Santa is unwell)' })).toBeVisible();
    expect(
      screen.getByText(
        /We are holding Sun 6 Dec, 11:40 am AEDT at Sydney Harbourside for you until Sun 6 Dec, 8:00 am AEDT/,
      ),
    ).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Move to this session' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes, move my booking' }));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      `/bookings/${aBooking().id}/closure/accept`,
    ]);
  });

  it('turns the offer into a full refund, and shows the refusal the API gives', async () => {
    const { calls } = renderWithApi(
      <ClosureOffer booking={aBooking({ closure: { reason: 'Santa is unwell', offer } })} />,
      () =>
        new Response(
          JSON.stringify({
            error: 'This booking has no replacement session waiting for an answer.',
            code: 'NO_CLOSURE_OFFER',
          }),
          { status: 409, headers: { 'content-type': 'application/json' } },
        ),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Refund me in full ($69.95)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes, refund $69.95' }));
    expect(calls.map((c) => c.path)).toEqual([`/bookings/${aBooking().id}/closure/refund`]);
    expect(await screen.findByRole('alert')).toHaveTextContent('no replacement session waiting');
  });

  it("offers what is left on the order after an earlier refund, not the booking's price (issue 53)", () => {
    renderWithApi(
      <ClosureOffer
        booking={aBooking({
          amountCents: 6995,
          closure: { reason: 'Santa is unwell', offer: { ...offer, refundCents: 5995 } },
        })}
      />,
      () => ({}),
    );
    expect(screen.getByRole('button', { name: 'Refund me in full ($59.95)' })).toBeVisible();
    expect(screen.queryByText(/\$69\.95/)).toBeNull();
  });

  it('once answered, says what happened: refunded, or moved', () => {
    renderWithApi(
      <ClosureOffer booking={aBooking({ status: 'cancelled', closure: { reason: 'Santa is unwell', offer: null } })} />,
      () => ({}),
    );
    expect(screen.getByText('We had to close this session (Santa is unwell). We are sorry.')).toBeVisible();
    renderWithApi(
      <ClosureOffer booking={aBooking({ closure: { reason: 'Santa is unwell', offer: null } })} />,
      () => ({}),
    );
    expect(
      screen.getByText('Moved here: we had to close the session you first booked (Santa is unwell).'),
    ).toBeVisible();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
