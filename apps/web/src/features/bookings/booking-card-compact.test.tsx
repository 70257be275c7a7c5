import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BookingCard } from './booking-card';
import { needsActionFirst } from './booking-list';
import { aBooking } from './booking-fixture';

/** Issue 53 item 13: compact cards on a phone, the check-in code behind a tap, today's visit first. */
describe('BookingCard, compact', () => {
  // The fixture's session: Sun 6 Dec 2026, 10:40 am in Sydney.
  const onTheDay = new Date('2026-12-05T21:00:00.000Z');
  afterEach(() => vi.useRealTimers());

  it("puts today's visit first, above a booking to pay and the rest", () => {
    const list = [
      aBooking({
        id: 'later',
        slot: { id: 's2', startAt: '2026-12-09T23:40:00.000Z', endAt: '2026-12-09T23:50:00.000Z' },
      }),
      aBooking({ id: 'pay', status: 'payment_pending' }),
      aBooking({ id: 'today' }),
    ];
    expect(needsActionFirst(list, onTheDay.getTime()).map((b) => b.id)).toEqual(['today', 'pay', 'later']);
    // The day before, the booking to pay is on top.
    expect(needsActionFirst(list, onTheDay.getTime() - 86_400_000).map((b) => b.id)).toEqual(['pay', 'later', 'today']);
  });

  it(
    'draws no QR code on the day until asked: a prominent "Show check-in code" first, which also hides it ' + 'again',
    async () => {
      const booking = aBooking();
      vi.useFakeTimers({ toFake: ['Date'], now: onTheDay });
      render(<BookingCard booking={booking} tab="upcoming" onAction={() => {}} />);
      expect(screen.queryByTestId('check-in-qr')).toBeNull();
      const show = screen.getByRole('button', { name: 'Show check-in code' });
      expect(show).toHaveAttribute('aria-expanded', 'false');
      // It comes before the card's other controls.
      expect(screen.getAllByRole('button')[0]).toBe(show);
      await userEvent.click(show);
      expect(
        await screen.findByRole('img', { name: `Check-in QR code for booking ${booking.reference}` }),
      ).toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: 'Hide check-in code' }));
      expect(screen.queryByTestId('check-in-qr')).toBeNull();
      vi.useRealTimers();
    },
  );

  it("says who's coming in one line", () => {
    render(
      <BookingCard
        booking={aBooking({
          details: {
            children: [
              { firstName: 'Mia', age: 6 },
              { firstName: 'Leo', age: 3 },
            ],
            adults: 2,
            pets: 0,
            accessNeeds: ['wheelchair'],
            accessNote: '',
            noteForSanta: '',
          },
        })}
        tab="upcoming"
        onAction={() => {}}
      />,
    );
    expect(screen.getByTestId('details-summary').tagName).toBe('P');
    expect(screen.getByTestId('details-summary')).toHaveTextContent(
      /^Coming: Mia \(6\), Leo \(3\), 2 adults\. Access: Wheelchair access/,
    );
  });
});
