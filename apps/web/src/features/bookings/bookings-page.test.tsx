import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { setAnalyticsSink, memorySink } from '../../lib/analytics';
import { aBooking, anOrder } from './booking-fixture';
import { BookingsPage } from './bookings-page';
import { renderWithApi, type Call } from './bookings-test-store';
import { POLICY_FIXTURE } from '../booking-wizard/state/wizard-test-store';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

const events: string[] = [];
beforeEach(() => {
  events.length = 0;
  toast.success.mockReset();
  toast.error.mockReset();
  setAnalyticsSink({ send: (event) => events.push(event) });
});
afterEach(() => setAnalyticsSink(memorySink));

const booking = aBooking();
const NOW = '2026-12-07T01:00:00.000Z';
const IN_3_YEARS = '2029-12-07T01:00:00.000Z';
const order = anOrder();

function server(overrides: (call: Call) => unknown = () => undefined) {
  let cancelled = false;
  let creditCents = 0;
  return (call: Call) => {
    const own = overrides(call);
    if (own !== undefined) return own;
    if (call.path === '/user/credit')
      return {
        balanceCents: creditCents,
        items: creditCents
          ? [{ at: NOW, cents: creditCents, reason: 'cancel_refund', bookingId: booking.id, expiresAt: IN_3_YEARS }]
          : [],
      };
    if (call.path.startsWith('/bookings/upcoming-bookings'))
      return { items: cancelled ? [] : [booking], nextCursor: null };
    if (call.path === `/orders/${booking.id}/orders`) return { items: [order] };
    if (call.method === 'POST' && call.path === `/bookings/${booking.id}/cancel`) {
      cancelled = true;
      const refundTo = (JSON.parse(call.body || '{}') as { refundTo?: string }).refundTo ?? 'card';
      if (refundTo === 'credit') creditCents += 6995;
      return {
        booking: { ...booking, status: 'cancelled' },
        refund: { id: '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f', amountCents: 6995, status: 'succeeded', refundTo },
      };
    }
    throw new Error(`unexpected call ${call.method} ${call.path}`);
  };
}

const handoff = () => ({ onBookNow: vi.fn(), onReschedule: vi.fn(), onContinuePayment: vi.fn() });

describe('BookingsPage', () => {
  it(
    'says up front when the family is at the five-upcoming-bookings limit, and not below it (issue 37 item ' + '6)',
    async () => {
      // The fixture's session is on 6 Dec 2026: upcoming only before then, so the page's "now" is fixed (the clock
      // only).
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-11-28T00:00:00Z'));
      onTestFinished(() => {
        vi.useRealTimers();
      });
      const five = Array.from({ length: 5 }, (_, i) =>
        aBooking({ id: `0b6f1c1e-3c1a-4b7e-9a51-5d0e8c1f2a0${i}`, reference: `KR-7K3Q${i}` }),
      );
      const at = (items: unknown[]) => (call: Call) =>
        call.path.startsWith('/bookings/upcoming-bookings')
          ? { items, nextCursor: null }
          : call.path === '/common/policy'
            ? POLICY_FIXTURE
            : undefined;
      renderWithApi(<BookingsPage {...handoff()} />, server(at(five)));
      expect(await screen.findByTestId('booking-limit')).toHaveTextContent(
        'You have 5 upcoming bookings, the most one account can hold. To book another, cancel one of them or contact ' +
          'us.',
      );
      cleanup();
      renderWithApi(<BookingsPage {...handoff()} />, server(at(five.slice(1))));
      await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(4));
      expect(screen.queryByTestId('booking-limit')).not.toBeInTheDocument();
    },
  );

  it('cancels after the dialog, toasts the refund in dollars and refreshes the list', async () => {
    const { calls } = renderWithApi(<BookingsPage {...handoff()} />, server());
    const card = await screen.findByRole('article');
    await userEvent.click(within(card).getByRole('button', { name: 'Cancel booking' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('You will be refunded $69.95 to the card you paid with.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith(
        'Booking KR-7K3Q9 is cancelled. $69.95 is on its way back to your card (allow 5 to 10 business days).',
      ),
    );
    expect(await screen.findByText('No upcoming visits with Santa yet.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: `/bookings/${booking.id}/cancel`,
      body: '{}',
    });
    expect(events).toEqual(['package_cancel', 'booking cancel']);
  });

  it('cancels to account credit when asked: says so, and shows the balance', async () => {
    const { calls } = renderWithApi(<BookingsPage {...handoff()} />, server());
    const card = await screen.findByRole('article');
    expect(screen.queryByTestId('credit-balance')).toBeNull();
    await userEvent.click(within(card).getByRole('button', { name: 'Cancel booking' }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('radio', { name: /Keep it as account credit/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Booking KR-7K3Q9 is cancelled. $69.95 is now account credit.'),
    );
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ body: '{"refundTo":"credit"}' });
    const balance = await screen.findByTestId('credit-balance');
    expect(balance).toHaveTextContent('Account credit: $69.95');
    // The date's parts are joined by no-break spaces, which toHaveTextContent reads as spaces.
    expect(balance.textContent).toContain('It lasts until 7\u00a0December\u00a02029.');
  });

  it('toasts the API’s message when a cancellation is refused', async () => {
    const refuse = (call: Call) =>
      call.method === 'POST'
        ? new Response(JSON.stringify({ error: 'This booking can no longer be cancelled.', code: 'NOT_CANCELLABLE' }), {
            status: 409,
          })
        : undefined;
    renderWithApi(<BookingsPage {...handoff()} />, server(refuse));
    await userEvent.click(within(await screen.findByRole('article')).getByRole('button', { name: 'Cancel booking' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel booking' }),
    );
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('This booking can no longer be cancelled.'));
    expect(events).toEqual(['package_cancel']);
  });

  it('downloads the payment receipt of the paid order as a file', async () => {
    const pdf = new Response(new Blob(['%PDF-1.7 test'], { type: 'application/pdf' }), {
      status: 200,
      headers: { 'content-type': 'application/pdf' },
    });
    const { calls } = renderWithApi(
      <BookingsPage {...handoff()} />,
      server((c) => (c.path.endsWith('/payment-receipt') ? pdf : undefined)),
    );
    // jsdom has no object URLs: stand them in for this test only.
    const createObjectURL = vi.fn(() => 'blob:receipt');
    vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('tax-invoice-KR-7K3Q9.pdf');
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Tax invoice' }));
    await waitFor(() => expect(click).toHaveBeenCalledOnce());
    expect(calls.map((c) => c.path)).toContain(`/orders/${booking.id}/orders/${order.id}/payment-receipt`);
    expect(createObjectURL).toHaveBeenCalledWith(expect.any(Blob));
    click.mockRestore();
    vi.unstubAllGlobals();
  });

  it('hands reschedule and continue payment to the app with the booking', async () => {
    const props = handoff();
    const pending = aBooking({
      id: '33333333-3333-4333-8333-333333333333',
      reference: 'KR-CCCCC',
      status: 'payment_pending',
      canReschedule: false,
      refundableCents: 0,
    });
    renderWithApi(
      <BookingsPage {...props} />,
      server((c) =>
        c.path.startsWith('/bookings/upcoming') ? { items: [booking, pending], nextCursor: null } : undefined,
      ),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Reschedule' }));
    await waitFor(() => expect(props.onReschedule).toHaveBeenCalledWith(booking));
    // The second card renders a frame after the first (booking-list.tsx).
    await userEvent.click(await screen.findByRole('button', { name: 'Continue payment' }));
    await waitFor(() => expect(props.onContinuePayment).toHaveBeenCalledWith(pending));
    expect(events).toEqual(['reschedule', 'package_reschedule', 'booking continue']);
  });
});
