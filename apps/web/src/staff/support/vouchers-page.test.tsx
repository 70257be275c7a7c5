import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StaffVoucher } from '@kringle/contracts/voucher-desk';
import { fakeStaffApi, json } from '../parts/fake-staff-api';
import { VouchersPage } from './vouchers-page';

const VOUCHER_BOOKING = '6c0a0b1e-3c1a-4b7e-9a51-5d0e8c1f2a01';
const VOUCHER: StaffVoucher = {
  id: '5c0a0b1e-3c1a-4b7e-9a51-5d0e8c1f2a01',
  code: '••••-••••-XYZ2',
  status: 'active',
  amountCents: 5000,
  balanceCents: 1005,
  expiresAt: '2029-12-05T01:00:00.000Z',
  recipientName: 'Ruby',
  sendOn: '2026-12-05',
  sentAt: '2026-12-04T22:00:00.000Z',
  buyerEmail: 'nana@kringle.test',
  recipientEmail: 'ruby@kringle.test',
  ownerEmail: 'ruby@kringle.test',
  cancelReason: null,
  refund: null,
  history: [
    { at: '2026-12-05T01:00:00.000Z', cents: 5000, reason: 'sold', bookingId: null },
    { at: '2026-12-06T01:00:00.000Z', cents: -3995, reason: 'spent', bookingId: VOUCHER_BOOKING },
  ],
};

afterEach(() => vi.unstubAllGlobals());

describe("support's gift vouchers", () => {
  it('asks for three characters before it searches', async () => {
    const calls = fakeStaffApi(() => undefined);
    render(<VouchersPage />);
    const box = screen.getByRole('searchbox', { name: /Code, or the buyer/ });
    await userEvent.type(box, 'ru{Enter}');
    expect(box).toHaveAccessibleDescription('Type at least 3 characters.');
    expect(calls).toEqual([]);
  });

  it('finds a voucher with its history, and cancels it only on a named second click, with the reason', async () => {
    const calls = fakeStaffApi((path, init) => {
      if (path === '/staff/vouchers?q=ruby%40kringle') return json(200, { items: [VOUCHER] });
      if (path === `/staff/vouchers/${VOUCHER.id}/cancel` && init?.method === 'POST')
        return json(200, {
          ...VOUCHER,
          status: 'cancelled',
          balanceCents: 0,
          cancelReason: 'Bought twice by mistake',
          refund: { cents: 1005, status: 'pending' },
          history: [...VOUCHER.history, { at: '2026-12-07T01:00:00.000Z', cents: -1005, reason: 'cancelled' }],
        });
    });
    render(<VouchersPage />);
    await userEvent.type(screen.getByRole('searchbox'), 'ruby@kringle{Enter}');
    const card = within(await screen.findByRole('article', { name: /XYZ2/ }));
    expect(screen.getByRole('status')).toHaveTextContent('1 voucher for “ruby@kringle”');
    expect(card.getByText('Balance').nextElementSibling).toHaveTextContent('$10.05');
    expect(card.getByText('Bought by').nextElementSibling).toHaveTextContent('nana@kringle.test');
    expect(card.getByText(/Spent on a booking/).nextElementSibling).toHaveTextContent('−$39.95');

    await userEvent.click(card.getByRole('button', { name: 'Cancel voucher' }));
    expect(card.getByText('Say why in at least 3 characters.')).toBeInTheDocument();
    await userEvent.type(card.getByRole('textbox', { name: /Reason/ }), 'Bought twice by mistake');
    await userEvent.click(card.getByRole('button', { name: 'Cancel voucher' }));
    expect(
      card.getByText(
        "Cancel ••••-••••-XYZ2? $10.05 goes back to the buyer's card, and ruby@kringle.test can no longer spend it.",
      ),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.call.startsWith('POST'))).toEqual([]);
    await userEvent.click(card.getByRole('button', { name: 'Cancel and refund $10.05' }));

    expect(await screen.findByText('••••-••••-XYZ2 cancelled: $10.05 back to the card.')).toBeInTheDocument();
    expect(card.getByText('Cancelled', { selector: 'span' })).toBeInTheDocument();
    expect(card.getByText('Refund to card').nextElementSibling).toHaveTextContent('$10.05, on its way to Stripe');
    expect(card.queryByRole('button', { name: 'Cancel voucher' })).toBeNull();
    expect(calls.find((c) => c.call.startsWith('POST'))).toEqual({
      call: `POST /staff/vouchers/${VOUCHER.id}/cancel`,
      body: { reason: 'Bought twice by mistake' },
    });
  });

  it('says so when nothing matches', async () => {
    fakeStaffApi((path) => (path.startsWith('/staff/vouchers?') ? json(200, { items: [] }) : undefined));
    render(<VouchersPage />);
    await userEvent.type(screen.getByRole('searchbox'), 'nobody{Enter}');
    expect(await screen.findByText('No gift voucher matches “nobody”.')).toBeInTheDocument();
  });
});
