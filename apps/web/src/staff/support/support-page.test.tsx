import type { Order } from '@kringle/contracts/orders';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RefundForm } from './support-actions';
import { SupportPage } from './support-page';

function fakeApi(answer: (url: string) => unknown) {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      urls.push(String(url));
      return new Response(JSON.stringify(answer(String(url))), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return urls;
}

const BOOKING = {
  id: '00000000-0000-4000-8000-0000000000b1',
  reference: 'KR-7K3Q9',
  location: {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'Kringle Sydney',
    address: '1 Pitt Street',
    timezone: 'UTC',
  },
  slot: { startAt: '2026-12-20T10:00:00.000Z', endAt: '2026-12-20T10:10:00.000Z' },
  attendance: 'confirmed',
};

describe('support desk', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('searches once the typing stops, and lists each family with its bookings', async () => {
    const urls = fakeApi(() => ({
      items: [
        {
          user: { id: 'u1', email: 'holly@example.com', firstName: 'holly', lastName: 'berry', phone: null },
          bookings: [BOOKING],
        },
      ],
    }));
    render(<SupportPage />);
    // Two changes well inside the debounce (pasted, so a busy machine cannot space them out): one search.
    await userEvent.click(screen.getByLabelText('Find a family'));
    await userEvent.paste('ho');
    await userEvent.paste('lly b');
    await screen.findByText('1 family found.');
    expect(urls.filter((u) => u.includes('/staff/families'))).toEqual([
      expect.stringContaining('/staff/families?q=holly%20b'),
    ]);
    expect(screen.getByRole('heading', { name: 'Holly Berry' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /KR-7K3Q9/ }).getAttribute('href')).toBe(
      `/staff/support?booking=${BOOKING.id}`,
    );
  });

  it('asks for two characters before searching', async () => {
    const urls = fakeApi(() => ({ items: [] }));
    render(<SupportPage />);
    await userEvent.type(screen.getByLabelText('Find a family'), 'h');
    expect(screen.getByRole('status').textContent).toBe('Type at least 2 characters.');
    await new Promise((r) => setTimeout(r, 400));
    expect(urls).toEqual([]);
  });

  it('never sends a refund larger than what is left, and requires a reason', async () => {
    const urls = fakeApi(() => ({}));
    const order = {
      id: 'o1',
      amountCents: 3995,
      refundedCents: 2000,
      refundPendingCents: 995,
      paidAt: '2026-11-20T00:00:00.000Z',
    } as Order;
    const onDone = vi.fn();
    render(<RefundForm order={order} onDone={onDone} />);
    expect(screen.getByLabelText('Amount in dollars ($10.00 left to refund)')).toBeTruthy();
    await userEvent.type(screen.getByLabelText(/Amount in dollars/), '10.01');
    await userEvent.click(screen.getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('Say why in at least 3 characters.')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Reason (kept in the audit trail)'), 'Add-on not delivered');
    await userEvent.click(screen.getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('Enter an amount from $0.01 to $10.00.')).toBeTruthy();
    expect(urls).toEqual([]);
    expect(onDone).not.toHaveBeenCalled();
  });
});
