import { DEFAULT_POLICY } from '@kringle/contracts/policy';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { BookingStatus } from '@kringle/contracts/statuses';
import { BookingCard, isToday } from './booking-card';
import { needsActionFirst } from './booking-list';
import { aBooking, anOrder } from './booking-fixture';

// The card's actions (the check-in code's own button is tested on its own below).
const buttons = () =>
  screen
    .queryAllByRole('button')
    .map((b) => b.textContent)
    .filter((name) => name !== 'Show check-in code');

describe('BookingCard', () => {
  it('shows where, when (in the location’s zone), what, the total and the reference', () => {
    render(<BookingCard booking={aBooking()} tab="upcoming" onAction={() => {}} />);
    const card = screen.getByRole('article', { name: 'Sun 6 Dec, 10:40 am AEDT' });
    expect(card).toHaveTextContent('Santa photos at Sydney Harbourside');
    expect(within(card).getByText('1 × Classic package')).toBeInTheDocument();
    expect(within(card).getByText('2 × Extra print')).toBeInTheDocument();
    expect(within(card).getByTestId('booking-total')).toHaveTextContent('$69.95');
    expect(within(card).getAllByText('KR-7K3Q9')[0]).toBeInTheDocument();
    expect(within(card).queryByText('Walk-in booking')).toBeNull();
  });

  it.each<[BookingStatus, string, string]>([
    ['payment_pending', 'Payment Pending', 'orange'],
    ['completed', 'Confirmed', 'green'],
    ['cancelled', 'Cancelled', 'red'],
    ['payment_failed', 'Payment Failed', 'volcano'],
  ])('tags %s as "%s" in %s', (status, label, colour) => {
    render(<BookingCard booking={aBooking({ status })} tab="upcoming" onAction={() => {}} />);
    expect(screen.getByText(label)).toHaveAttribute('data-colour', colour);
  });

  it('states the free-reschedule and full-refund deadlines in the location’s zone while they apply', () => {
    const { unmount } = render(
      <BookingCard
        booking={aBooking({ rescheduleCount: 1 })}
        tab="upcoming"
        onAction={() => {}}
        policy={DEFAULT_POLICY}
      />,
    );
    // The zone is the heading's (AEDT): said once, so each deadline is one line on a phone (issue 53 item 13).
    expect(screen.getByTestId('booking-deadlines')).toHaveTextContent(
      /^Free reschedule until Sat 5 Dec, 10:40 amFull refund until Fri 4 Dec, 10:40 am$/,
    );
    expect(screen.getByText('1 of 2 free moves used.')).toBeInTheDocument();
    unmount();
    render(
      <BookingCard
        booking={aBooking({ canReschedule: false, refundableCents: 0 })}
        tab="upcoming"
        onAction={() => {}}
        policy={DEFAULT_POLICY}
      />,
    );
    expect(screen.queryByTestId('booking-deadlines')).toBeNull();
  });

  it('a cancelled booking no longer counts its moves; who is coming is named for its booking', () => {
    render(
      <BookingCard
        booking={aBooking({ status: 'cancelled', rescheduleCount: 1 })}
        tab="past"
        onAction={() => {}}
        policy={DEFAULT_POLICY}
      />,
    );
    expect(screen.queryByText('1 of 2 free moves used.')).toBeNull();
    expect(screen.getByRole('region', { name: "Who's coming, KR-7K3Q9" })).toBeInTheDocument();
  });

  it("shows the set's delay with the new expected time in the location's zone, and its note", () => {
    const delay = {
      minutes: 20,
      message: 'The elves are fixing the sleigh.',
      expectedStartAt: '2026-12-06T00:00:00.000Z',
      sentAt: '2026-12-05T23:30:00.000Z',
    };
    const { unmount } = render(<BookingCard booking={aBooking({ delay })} tab="upcoming" onAction={() => {}} />);
    expect(screen.getByRole('region', { name: 'Santa is running late, KR-7K3Q9' })).toHaveTextContent(
      'Santa is running lateAbout 20 minutes behind. Your session should now start around 11:00 am AEDT.' +
        'The elves are fixing the sleigh.',
    );
    unmount();
    render(<BookingCard booking={aBooking()} tab="upcoming" onAction={() => {}} />);
    expect(screen.queryByTestId('delay-notice')).toBeNull();
  });

  it('shows the wallet buttons the list gives an upcoming booking with its code, never in the past tab', async () => {
    const wallet = <button type="button">Add to Apple Wallet</button>;
    const { unmount } = render(<BookingCard booking={aBooking()} tab="upcoming" onAction={() => {}} wallet={wallet} />);
    expect(screen.queryByRole('button', { name: 'Add to Apple Wallet' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Show check-in code' }));
    expect(screen.getByRole('button', { name: 'Add to Apple Wallet' })).toBeInTheDocument();
    unmount();
    render(<BookingCard booking={aBooking()} tab="past" onAction={() => {}} wallet={wallet} />);
    expect(screen.queryByRole('button', { name: 'Add to Apple Wallet' })).toBeNull();
  });

  it('marks walk-in bookings', () => {
    render(<BookingCard booking={aBooking({ source: 'walkin' })} tab="upcoming" onAction={() => {}} />);
    expect(screen.getByText('Walk-in booking')).toBeInTheDocument();
  });

  it('offers reschedule, calendar, receipt and cancel on a confirmed upcoming booking', () => {
    render(<BookingCard booking={aBooking()} tab="upcoming" orders={[anOrder()]} onAction={() => {}} />);
    expect(buttons()).toEqual(['Reschedule', 'Cancel booking', 'Add to calendar', 'Tax invoice']);
  });

  it('follows the policy flags: no reschedule or cancel when the API says no', () => {
    render(
      <BookingCard booking={aBooking({ canReschedule: false, canCancel: false })} tab="upcoming" onAction={() => {}} />,
    );
    expect(buttons()).toEqual(['Add to calendar']);
  });

  it('offers continue payment and cancel on an unpaid upcoming booking, and says until when it is held', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-24T22:35:00.000Z') });
    render(
      <BookingCard
        booking={aBooking({
          status: 'payment_failed',
          canReschedule: false,
          refundableCents: 0,
          holdExpiresAt: '2026-11-24T22:42:30.000Z',
        })}
        tab="upcoming"
        onAction={() => {}}
      />,
    );
    expect(buttons()).toEqual(['Continue payment', 'Cancel booking']);
    expect(
      screen.getByText(/This session is held for you until 9:42 am AEDT\. Finish paying to confirm it\./),
    ).toBeInTheDocument();
    vi.useRealTimers();
  });

  it('offers both receipts on a refunded booking in the past tab', () => {
    const orders = [
      anOrder({
        status: 'refunded',
        paymentStatus: 'refunded',
        refundedCents: 6995,
        refundedAt: '2026-11-21T00:00:00.000Z',
      }),
    ];
    render(
      <BookingCard
        booking={aBooking({ status: 'cancelled', canReschedule: false, canCancel: false, refundableCents: 0 })}
        tab="past"
        orders={orders}
        onAction={() => {}}
      />,
    );
    expect(buttons()).toEqual(['Tax invoice', 'Refund receipt']);
    expect(screen.getByText('Refunded $69.95 to the card you paid with.')).toBeInTheDocument();
  });

  it("speaks of the booking's own order only: a photo order's receipts and refund are in the gallery", () => {
    const photos = anOrder({
      id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
      amountCents: 900,
      refundedCents: 900,
      paymentStatus: 'refunded',
      items: [
        {
          id: '9a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c81',
          type: 'photo',
          name: 'Extra digital photo',
          quantity: 1,
          unitPriceCents: 900,
          totalCents: 900,
        },
      ],
    });
    render(
      <BookingCard
        booking={aBooking({ status: 'cancelled', canReschedule: false, canCancel: false, refundableCents: 0 })}
        tab="past"
        orders={[anOrder(), photos]}
        onAction={() => {}}
      />,
    );
    expect(buttons()).toEqual(['Tax invoice']);
    expect(screen.getByText('No refund: this booking was cancelled after the refund cut-off.')).toBeInTheDocument();
  });

  it('once the hold has ended, says so and no longer offers to pay', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], now: Date.parse('2026-11-24T22:42:00.000Z') });
    render(
      <BookingCard
        booking={aBooking({
          status: 'payment_pending',
          canReschedule: false,
          refundableCents: 0,
          holdExpiresAt: '2026-11-24T22:42:30.000Z',
        })}
        tab="upcoming"
        onAction={() => {}}
      />,
    );
    expect(buttons()).toEqual(['Continue payment', 'Cancel booking']);
    act(() => vi.advanceTimersByTime(31_000));
    expect(screen.getByText(/The hold on this session has ended/)).toBeInTheDocument();
    expect(buttons()).toEqual(['Cancel booking']);
    vi.useRealTimers();
  });

  it('says a refund is on its way while Stripe has not confirmed it, with no refund receipt yet', () => {
    const orders = [anOrder({ refundPendingCents: 6995 })];
    render(
      <BookingCard
        booking={aBooking({ status: 'cancelled', canReschedule: false, canCancel: false, refundableCents: 0 })}
        tab="past"
        orders={orders}
        onAction={() => {}}
      />,
    );
    expect(buttons()).toEqual(['Tax invoice']);
    expect(screen.getByText(/A refund of \$69.95 is on its way/)).toBeInTheDocument();
    expect(screen.queryByText(/No refund/)).not.toBeInTheDocument();
  });

  it('says a paid booking cancelled after the cut-off got no refund, once its orders are known', () => {
    const cancelled = aBooking({ status: 'cancelled', canReschedule: false, canCancel: false, refundableCents: 0 });
    const { rerender } = render(<BookingCard booking={cancelled} tab="past" onAction={() => {}} />);
    expect(screen.queryByText(/No refund/)).not.toBeInTheDocument();
    rerender(<BookingCard booking={cancelled} tab="past" orders={[anOrder()]} onAction={() => {}} />);
    expect(screen.getByText('No refund: this booking was cancelled after the refund cut-off.')).toBeInTheDocument();
    // Never paid (a hold that ran out): there was nothing to refund, so nothing is said.
    rerender(
      <BookingCard
        booking={cancelled}
        tab="past"
        orders={[anOrder({ status: 'pending', paymentStatus: null, paidAt: null })]}
        onAction={() => {}}
      />,
    );
    expect(screen.queryByText(/No refund/)).not.toBeInTheDocument();
  });

  it('reports the action and the booking, and waits while one is running', async () => {
    const onAction = vi.fn();
    const booking = aBooking();
    const { rerender } = render(<BookingCard booking={booking} tab="upcoming" onAction={onAction} />);
    await userEvent.click(screen.getByRole('button', { name: 'Reschedule' }));
    expect(onAction).toHaveBeenCalledWith('reschedule', booking);
    rerender(<BookingCard booking={booking} tab="upcoming" busy="calendar" onAction={onAction} />);
    expect(screen.getByRole('button', { name: 'Downloading…' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reschedule' })).toBeDisabled();
  });

  it('shows the check-in QR code on demand (on the day too: booking-card-compact.test.tsx)', async () => {
    const booking = aBooking();
    expect(isToday(booking, new Date(booking.slot.startAt))).toBe(true);
    expect(isToday(booking, new Date(Date.parse(booking.slot.startAt) - 86_400_000))).toBe(false);
    render(<BookingCard booking={booking} tab="upcoming" onAction={() => {}} />);
    expect(screen.queryByTestId('check-in-qr')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Show check-in code' }));
    expect(
      await screen.findByRole('img', { name: `Check-in QR code for booking ${booking.reference}` }),
    ).toBeInTheDocument();
  });

  it('puts a booking waiting to be paid on top and keeps the rest in order', () => {
    const [a, b, c] = [aBooking({ id: 'a' }), aBooking({ id: 'b', status: 'payment_pending' }), aBooking({ id: 'c' })];
    expect(needsActionFirst([a, b, c]).map((x) => x.id)).toEqual(['b', 'a', 'c']);
  });

  it(
    "puts a closed session's replacement waiting for an answer next, under a booking to pay; an offer that has " +
      'lapsed keeps its place',
    () => {
      const offer = (hours: number) => ({
        reason: 'Flooding',
        offer: {
          slotId: 's',
          startAt: '2026-12-07T00:00:00.000Z',
          expiresAt: new Date(Date.now() + hours * 3_600_000).toISOString(),
          locationName: 'Sydney',
          refundCents: 6995,
        },
      });
      const list = [
        aBooking({ id: 'a' }),
        aBooking({ id: 'lapsed', closure: offer(-1) }),
        aBooking({ id: 'move', closure: offer(20) }),
        aBooking({ id: 'pay', status: 'payment_failed' }),
      ];
      expect(needsActionFirst(list).map((x) => x.id)).toEqual(['pay', 'move', 'a', 'lapsed']);
    },
  );

  it(
    'one package: one line with its total; the check-in code is one quiet tap beside the files before the ' + 'day',
    async () => {
      const booking = aBooking({
        items: [
          { id: 'p', type: 'package', name: 'Classic package', quantity: 1, unitPriceCents: 3995, totalCents: 3995 },
        ],
        amountCents: 3995,
      });
      render(<BookingCard booking={booking} tab="upcoming" onAction={() => {}} />);
      expect(screen.getByText(/^1 × Classic package/)).toHaveTextContent('1 × Classic package (incl. $3.63 GST)');
      expect(screen.getByTestId('booking-total')).toHaveTextContent('$39.95');
      expect(screen.queryByText('Total')).toBeNull();
      expect(screen.getByRole('button', { name: 'Show check-in code' })).toHaveAttribute('aria-expanded', 'false');
    },
  );

  it("a donation is its own line, and the GST is the goods' alone", () => {
    const booking = aBooking({
      items: [
        { id: 'p', type: 'package', name: 'Classic package', quantity: 1, unitPriceCents: 3995, totalCents: 3995 },
      ],
      amountCents: 4495,
      donationCents: 500,
    });
    render(<BookingCard booking={booking} tab="upcoming" onAction={() => {}} />);
    expect(screen.getByTestId('booking-donation')).toHaveTextContent('Donation (no GST)$5.00');
    expect(screen.getByText(/^Total/)).toHaveTextContent('Total (incl. $3.63 GST)');
    expect(screen.getByTestId('booking-total')).toHaveTextContent('$44.95');
  });
});
