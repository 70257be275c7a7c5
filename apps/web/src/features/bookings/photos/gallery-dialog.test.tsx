import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Gallery } from '@kringle/contracts/photos';
import type { BookingOrder } from '../api';
import { aBooking, anOrder } from '../booking-fixture';
import { renderWithApi, type Call } from '../bookings-test-store';
import { allowanceHint, allowanceWords, photosBought } from './allowance';
import GalleryDialog from './gallery-dialog';
import { mayHavePhotos, photosLabel } from './photos-button';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const booking = aBooking();
const photo = (n: number, unlocked = false) => ({
  id: `9a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8${n}`,
  previewUrl: `/api/v1/photo-files/photos/${n}/preview.jpg?sig=x`,
  width: 1600,
  height: 1067,
  unlocked,
});
const gallery = (over: Partial<Gallery> = {}): Gallery => ({
  items: [photo(1), photo(2), photo(3)],
  included: 2,
  unlocked: 0,
  extraPhotoPriceCents: 900,
  expiresAt: '2027-01-25T00:00:00.000Z',
  ...over,
});

/** The booking's orders answer `orders` (none bought unless a test says so). */
function open(respond: (call: Call) => unknown, orders: () => BookingOrder[] = () => [anOrder()]) {
  return renderWithApi(<GalleryDialog booking={booking} onClose={() => {}} />, (call) => {
    if (call.method === 'GET' && call.path === `/orders/${booking.id}/orders`) return { items: orders() };
    const own = respond(call);
    if (own === undefined) throw new Error(`unexpected call ${call.method} ${call.path}`);
    return own;
  });
}

describe('the family gallery', () => {
  it('says the allowance, or that every photo is included', () => {
    expect(allowanceWords({ included: 5, unlocked: 3 })).toBe('3 of 5 chosen');
    expect(allowanceWords({ included: 'all', unlocked: 4 })).toBe('Every photo is included in your package.');
  });

  it('says what came with the package and what was bought once a photo was bought (issue 53 item 14)', () => {
    // `included` counts the bought ones with the package's (API.md): 2 in the package, 1 bought.
    expect(allowanceWords({ included: 3, unlocked: 3 }, 1)).toBe('3 unlocked: 2 with your package, 1 bought');
    expect(allowanceHint({ included: 3, unlocked: 3 }, 1)).toBe(
      'You have unlocked the 2 photos your package includes and the 1 photo you bought.',
    );
    expect(allowanceHint({ included: 2, unlocked: 2 })).toBe('You have unlocked every photo your package includes.');
    const line = (n: number) => ({
      id: photo(1).id,
      type: 'photo' as const,
      name: 'Extra digital photo',
      quantity: n,
      unitPriceCents: 900,
      totalCents: 900 * n,
    });
    // The booking's own order, one photo bought, two refunded in full and one never paid: one bought.
    expect(
      photosBought([
        anOrder(),
        anOrder({ amountCents: 900, items: [line(1)] }),
        anOrder({ amountCents: 1800, refundedCents: 1800, items: [line(2)] }),
        anOrder({ paidAt: null, items: [line(1)] }),
      ]),
    ).toBe(1);
  });

  it('is offered on a confirmed booking from its day on, not before it nor on a cancelled one', () => {
    const day = new Date('2026-12-06T03:00:00.000Z');
    expect(mayHavePhotos(booking, day)).toBe(true);
    expect(mayHavePhotos(booking, new Date('2026-12-05T03:00:00.000Z'))).toBe(false);
    expect(mayHavePhotos(aBooking({ status: 'cancelled' }), day)).toBe(false);
    // Photos uploaded: offered whatever the day, and counted on the card.
    expect(mayHavePhotos(aBooking({ photoCount: 5 }), new Date('2026-12-05T03:00:00.000Z'))).toBe(true);
    expect(photosLabel({ photoCount: 5 })).toBe('5 photos');
    expect(photosLabel({ photoCount: 1 })).toBe('1 photo');
    expect(photosLabel({ photoCount: 0 })).toBe('Photos');
  });

  it(
    'offers locked photos to buy once the allowance is used, priced, and opens the card form for the ' + 'order',
    async () => {
      let body: string | null = null;
      open((call) => {
        if (call.method === 'GET' && call.path === `/bookings/${booking.id}/photos`)
          return gallery({ items: [photo(1, true), photo(2, true), photo(3)], unlocked: 2 });
        if (call.method === 'GET' && call.path === '/common/stripe-client-secret')
          return { provider: 'stripe', publishableKey: 'pk_test_x', sandbox: true, sandboxUrl: 'http://127.0.0.1:1' };
        if (call.method === 'POST' && call.path === `/bookings/${booking.id}/photos/checkout`) {
          body = call.body;
          return { orderId: '7a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d', client_secret: 'pi_1_secret_2', amountCents: 900 };
        }
      });
      const dialog = await screen.findByRole('dialog', { name: 'Your photos' });
      expect(
        await within(dialog).findByText('Want more? Buy any other photo for $9.00 each: pick them below.'),
      ).toBeInTheDocument();
      expect(within(dialog).queryByRole('button', { name: 'Choose photo 3' })).toBeNull();
      await userEvent.click(within(dialog).getByRole('button', { name: 'Buy photo 3' }));
      expect(within(dialog).getByRole('region', { name: 'Buy 1 photo' })).toHaveTextContent(
        '1 photo × $9.00 (incl. GST)$9.00',
      );
      await userEvent.click(within(dialog).getByRole('button', { name: 'Pay for 1 photo' }));
      expect(await within(dialog).findByRole('button', { name: 'Pay $9.00' })).toBeInTheDocument();
      expect(JSON.parse(body!)).toEqual({ photoIds: [photo(3).id] });
      // The order is open: the choice stays until it is paid or dropped.
      expect(within(dialog).getByRole('button', { name: 'Buying photo 3' })).toBeDisabled();
    },
  );

  it('shows the previews, the allowance and the expiry; unlocks the chosen ones within the allowance', async () => {
    let unlockBody: string | null = null;
    const { calls } = open((call) => {
      if (call.method === 'GET' && call.path === `/bookings/${booking.id}/photos`) return gallery();
      if (call.method === 'POST' && call.path === `/bookings/${booking.id}/photos/unlock`) {
        unlockBody = call.body;
        return gallery({ items: [photo(1, true), photo(2), photo(3, true)], unlocked: 2 });
      }
    });
    const dialog = await screen.findByRole('dialog', { name: 'Your photos' });
    expect(await within(dialog).findByTestId('photo-allowance')).toHaveTextContent('0 of 2 chosen');
    expect(dialog).toHaveTextContent('Kept until Mon 25 January 2027, then deleted.');
    expect(within(dialog).getAllByRole('button', { name: /^View photo/ })).toHaveLength(3);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Choose photo 1' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Choose photo 3' }));
    // A third is past what the package includes: said at once, not sent.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Choose photo 2' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Your package has 2 more photos to choose.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unlock 2 photos' }));
    // It cannot be undone: asked first, with which photos and what is left (issue 53 item 14).
    const ask = within(dialog).getByRole('group', { name: 'Unlock photos 1 and 3?' });
    expect(ask).toHaveTextContent('This uses the last of the photos your package includes.');
    expect(unlockBody).toBeNull();
    await userEvent.click(within(ask).getByRole('button', { name: 'Not yet' }));
    expect(within(dialog).queryByRole('group', { name: /^Unlock/ })).toBeNull();
    expect(unlockBody).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unlock 2 photos' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, unlock 2 photos' }));
    expect(await within(dialog).findByText('2 of 2 chosen')).toBeInTheDocument();
    expect(JSON.parse(unlockBody!)).toEqual({ photoIds: [photo(1).id, photo(3).id] });
    expect(within(dialog).getByRole('button', { name: 'Download photo 1' })).toBeEnabled();
    expect(within(dialog).getByRole('button', { name: 'Download all unlocked (2)' })).toBeEnabled();
    expect(calls.filter((c) => c.method === 'GET' && c.path.endsWith('/photos'))).toHaveLength(1);
  });

  it('says plainly when another device used the allowance, and shows the gallery as it now is', async () => {
    let used = false;
    open((call) => {
      if (call.method === 'GET')
        return used ? gallery({ items: [photo(1, true), photo(2, true), photo(3)], unlocked: 2 }) : gallery();
      used = true;
      return new Response(
        JSON.stringify({
          error: 'Your packages include no more photos. Buy more to unlock these.',
          code: 'PHOTO_ALLOWANCE_USED',
        }),
        { status: 409, headers: { 'content-type': 'application/json' } },
      );
    });
    const dialog = await screen.findByRole('dialog', { name: 'Your photos' });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Choose photo 3' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unlock 1 photo' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, unlock 1 photo' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Your packages include no more photos. Buy more to unlock these.',
    );
    expect(await within(dialog).findByText('2 of 2 chosen')).toBeInTheDocument();
  });

  it('moves through the photos with the arrow keys in the viewer, and closes it with Escape', async () => {
    open((call) => (call.method === 'GET' ? gallery() : undefined));
    const dialog = await screen.findByRole('dialog', { name: 'Your photos' });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'View photo 3' }));
    expect(screen.getByRole('dialog', { name: 'Photo 3 of 3' })).toBeInTheDocument();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('dialog', { name: 'Photo 1 of 3' })).toBeInTheDocument();
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(screen.getByRole('dialog', { name: 'Photo 2 of 3' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: /^Photo/ })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Your photos' })).toBeInTheDocument();
  });

  it(
    "lists the photos bought, each with its tax invoice (and refund receipt), apart from the booking's own " + 'order',
    async () => {
      const photoLine = (n: number) => ({
        id: photo(1).id,
        type: 'photo' as const,
        name: 'Extra digital photo',
        quantity: n,
        unitPriceCents: 900,
        totalCents: 900 * n,
      });
      const bought = anOrder({
        id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
        amountCents: 900,
        items: [photoLine(1)],
        paidAt: '2026-12-07T01:00:00.000Z',
      });
      const refunded = anOrder({
        id: '4a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
        amountCents: 1800,
        refundedCents: 1800,
        paymentStatus: 'refunded',
        items: [photoLine(2)],
        paidAt: '2026-12-08T01:00:00.000Z',
      });
      const pending = anOrder({
        id: '3a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
        status: 'pending',
        paymentStatus: null,
        paidAt: null,
        items: [photoLine(1)],
      });
      open(
        (call) =>
          call.method === 'GET'
            ? gallery({ items: [photo(1, true), photo(2, true), photo(3, true)], unlocked: 3 })
            : undefined,
        () => [anOrder(), bought, refunded, pending],
      );
      const purchases = await screen.findByRole('region', { name: 'Photos you bought' });
      expect(
        within(purchases)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual([
        expect.stringContaining('1 photo on 7 December 2026, $9.00'),
        expect.stringContaining('2 photos on 8 December 2026, $18.00, $18.00 refunded'),
      ]);
      expect(
        within(purchases).getByRole('button', { name: 'Tax invoice for 1 photo on 7 December 2026' }),
      ).toBeEnabled();
      expect(
        within(purchases).getByRole('button', { name: 'Tax invoice for 2 photos on 8 December 2026' }),
      ).toBeEnabled();
      expect(within(purchases).getAllByRole('button', { name: /^Refund receipt/ })).toHaveLength(1);
    },
  );

  it('shows no purchases when only the booking itself was paid', async () => {
    open((call) => (call.method === 'GET' ? gallery() : undefined));
    expect(await screen.findByRole('button', { name: 'View photo 1' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Photos you bought' })).toBeNull();
  });

  it('says when there are no photos yet', async () => {
    open((call) => (call.method === 'GET' ? gallery({ items: [], unlocked: 0, expiresAt: null }) : undefined));
    expect(await screen.findByText(/No photos yet/)).toBeInTheDocument();
  });
});
