import type { SupportBooking } from '@kringle/contracts/support';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GalleryExtendForm } from './gallery-extend';

const BOOKING = {
  id: '00000000-0000-4000-8000-0000000000b1',
  location: {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'Kringle Sydney',
    address: '1 Pitt Street',
    timezone: 'UTC',
  },
  photoCount: 5,
  galleryExpiresAt: '2027-01-25T09:00:00.000Z',
} as unknown as SupportBooking & { galleryExpiresAt: string };

describe('keeping a family’s photos longer', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says how many photos and until when; asks for a reason, then sends the days chosen with it', async () => {
    const sent: { url: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        sent.push({ url: String(url), body: JSON.parse(String(init?.body)) });
        return new Response(JSON.stringify({ bookingId: BOOKING.id, expiresAt: '2027-02-08T09:00:00.000Z' }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    const onDone = vi.fn();
    render(<GalleryExtendForm booking={BOOKING} onDone={onDone} />);
    expect(screen.getByText(/5 photos, deleted .*25 Jan.* unless extended/)).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Days to add'), '14');
    await userEvent.click(screen.getByRole('button', { name: 'Add 14 days' }));
    expect(await screen.findByText('Say why in at least 3 characters.')).toBeTruthy();
    expect(sent).toEqual([]);
    await userEvent.type(screen.getByLabelText('Reason (kept in the audit trail)'), 'Family was away');
    await userEvent.click(screen.getByRole('button', { name: 'Add 14 days' }));
    await vi.waitFor(() =>
      expect(onDone).toHaveBeenCalledWith(expect.stringMatching(/^The photos are now kept until .*8 Feb/)),
    );
    expect(sent).toEqual([
      {
        url: expect.stringContaining(`/staff/bookings/${BOOKING.id}/photos/extend`),
        body: { days: 14, reason: 'Family was away' },
      },
    ]);
  });
});
