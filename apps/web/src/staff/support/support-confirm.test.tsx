import type { Order } from '@kringle/contracts/orders';
import type { SupportBooking } from '@kringle/contracts/support';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RefundForm, RescheduleForm } from './support-actions';

/** The staff API as these forms meet it: every call recorded. */
function fakeApi(answer: (url: string) => unknown) {
  const calls: { method: string; url: string; body?: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({
        method: init?.method ?? 'GET',
        url: String(url),
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      });
      return new Response(JSON.stringify(answer(String(url))), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}
const posts = (calls: { method: string; url: string }[]) =>
  calls.filter((c) => c.method === 'POST' && c.url.includes('/staff/'));

afterEach(() => vi.unstubAllGlobals());

/** Issue 53 item 8: support's Move and Refund acted on one click. */
describe('support actions say exactly what will happen, then act on a second click', () => {
  it(
    'refund: the amount and what is left, nothing sent until "Yes", Go back and Escape return to the ' + 'form',
    async () => {
      const calls = fakeApi(() => ({ id: 'r1' }));
      const order = {
        id: 'o1',
        amountCents: 3995,
        refundedCents: 0,
        refundPendingCents: 0,
        paidAt: '2026-11-20T00:00:00.000Z',
      } as Order;
      const onDone = vi.fn();
      render(<RefundForm order={order} onDone={onDone} />);
      await userEvent.type(screen.getByLabelText(/Amount in dollars/), '10');
      await userEvent.type(screen.getByLabelText('Reason (kept in the audit trail)'), 'Add-on not delivered');
      await userEvent.click(screen.getByRole('button', { name: 'Refund' }));
      const step = screen.getByRole('group', { name: /Refund \$10\.00 of the \$39\.95 payment/ });
      expect(step).toHaveTextContent(
        "Refund $10.00 of the $39.95 payment to the family's card? $29.95 will be left to refund.",
      );
      // Focus moves to what will happen, so a screen reader reads it.
      expect(within(step).getByText(/Refund \$10\.00/)).toHaveFocus();
      expect(posts(calls)).toEqual([]);

      await userEvent.keyboard('{Escape}');
      expect(screen.queryByRole('group', { name: /Refund \$10\.00/ })).toBeNull();
      await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Refund' })).toHaveFocus());
      await userEvent.click(screen.getByRole('button', { name: 'Refund' }));
      await userEvent.click(screen.getByRole('button', { name: 'Go back' }));
      expect(posts(calls)).toEqual([]);

      await userEvent.click(screen.getByRole('button', { name: 'Refund' }));
      await userEvent.click(screen.getByRole('button', { name: 'Yes, refund $10.00' }));
      await vi.waitFor(() => expect(onDone).toHaveBeenCalledWith('Refunding $10.00. The family has been e-mailed.'));
      expect(posts(calls)).toEqual([
        expect.objectContaining({
          url: expect.stringContaining('/staff/orders/o1/refunds'),
          body: { amountCents: 1000, reason: 'Add-on not delivered' },
        }),
      ]);
    },
  );

  it(
    'move: from and to in the location\'s zone, nothing sent until "Yes, move it"; changing the session goes ' + 'back',
    async () => {
      const free = [
        {
          id: '00000000-0000-4000-8000-0000000000s1',
          startAt: '2026-12-20T01:00:00.000Z',
          endAt: '2026-12-20T01:10:00.000Z',
          slotTypeName: 'Santa photos',
        },
        {
          id: '00000000-0000-4000-8000-0000000000s2',
          startAt: '2026-12-20T03:30:00.000Z',
          endAt: '2026-12-20T03:40:00.000Z',
          slotTypeName: 'Santa photos',
        },
      ];
      const calls = fakeApi((url) => (url.includes('free-sessions') ? { items: free } : {}));
      const booking = {
        id: '00000000-0000-4000-8000-0000000000b1',
        reference: 'KR-7K3Q9',
        location: {
          id: '00000000-0000-4000-8000-000000000001',
          name: 'Kringle Perth',
          address: '1 Murray Street',
          timezone: 'Australia/Perth',
        },
        slot: { startAt: '2026-12-20T02:00:00.000Z', endAt: '2026-12-20T02:10:00.000Z' },
      } as unknown as SupportBooking;
      const onDone = vi.fn();
      render(<RescheduleForm booking={booking} onDone={onDone} />);
      const select = screen.getByLabelText('Free session');
      await vi.waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(3));
      await userEvent.selectOptions(select, free[1]!.id);
      await userEvent.type(screen.getByLabelText('Reason (kept in the audit trail)'), 'Family phoned');
      await userEvent.click(screen.getByRole('button', { name: 'Move the booking' }));
      // Perth is UTC+8: 02:00Z is 10:00 am AWST, 03:30Z 11:30 am.
      expect(screen.getByRole('group', { name: /Move booking KR-7K3Q9/ })).toHaveTextContent(
        'Move booking KR-7K3Q9 at Kringle Perth from Sun 20 Dec, 10:00 am AWST to Sun 20 Dec, 11:30 am AWST (Santa ' +
          'photos)?',
      );
      await userEvent.selectOptions(select, free[0]!.id);
      expect(screen.queryByRole('group', { name: /Move booking/ })).toBeNull();
      await userEvent.click(screen.getByRole('button', { name: 'Move the booking' }));
      expect(screen.getByRole('group', { name: /Move booking/ })).toHaveTextContent(
        'to Sun 20 Dec, 9:00 am AWST (Santa photos)?',
      );
      expect(posts(calls)).toEqual([]);
      await userEvent.click(screen.getByRole('button', { name: 'Yes, move it' }));
      await vi.waitFor(() => expect(onDone).toHaveBeenCalledWith('Moved. The family has been e-mailed.'));
      expect(posts(calls)).toEqual([
        expect.objectContaining({
          url: expect.stringContaining(`/staff/bookings/${booking.id}/reschedule`),
          body: { slotId: free[0]!.id, reason: 'Family phoned' },
        }),
      ]);
    },
  );
});
