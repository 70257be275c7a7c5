import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Voucher } from '@kringle/contracts/vouchers';
import { setDonation, setVouchers } from '../state/booking-slice';
import { CHARITY, CREDIT, NO_VOUCHER, order, renderStep } from './overview-step-fixture';

/** A voucher as GET /vouchers lists it. */
const aVoucher = (over: Partial<Voucher>): Voucher => ({
  id: '5c0a0b1e-3c1a-4b7e-9a51-5d0e8c1f2a01',
  code: 'ABCD-EFGH-JKMN',
  status: 'active',
  amountCents: 5000,
  balanceCents: 3000,
  expiresAt: '2029-12-07T03:00:00.000Z',
  recipientName: 'Holly',
  sendOn: '2026-12-07',
  sentAt: '2026-12-07T03:00:00.000Z',
  bought: false,
  claimed: true,
  ...over,
});

describe('Overview: gift vouchers', () => {
  const total = () => screen.getByTestId('overview-total');
  const field = () => screen.getByRole('textbox', { name: 'Gift voucher' });
  const vouchers = () => within(screen.getByTestId('gift-vouchers'));

  it('applied: priced by the server, a line in the totals with its cents, the card pays the rest; Remove', async () => {
    const t = renderStep(1);
    t.view();
    expect(total()).toHaveTextContent('$39.95');
    await userEvent.type(field(), 'abcd efgh jkmn');
    await userEvent.click(screen.getByRole('button', { name: 'Apply gift voucher' }));

    const line = await screen.findByTestId('voucher-line');
    expect(line).toHaveTextContent('Gift voucher ABCD-EFGH-JKMN−$30.00');
    expect(total()).toHaveTextContent('$9.95');
    // A voucher pays; it takes nothing off the price, so the GST is the goods' own.
    expect(order().getByText('GST included').nextElementSibling).toHaveTextContent('$3.63');
    expect(vouchers().getByText('$30.00 off')).toBeInTheDocument();
    expect(t.sent).toEqual([expect.objectContaining({ amount: 3995, vouchers: ['ABCD-EFGH-JKMN'] })]);
    expect(t.store.getState().booking.vouchers).toMatchObject({
      codes: ['ABCD-EFGH-JKMN'],
      parts: [{ code: 'ABCD-EFGH-JKMN', cents: 3000 }],
    });
    expect(screen.getByText('Gift voucher ABCD-EFGH-JKMN applied: $30.00 off.')).toHaveAttribute('role', 'status');
    // Still Continue to payment: the card pays $9.95.
    expect(screen.getByRole('button', { name: 'Continue to payment' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Remove gift voucher ABCD-EFGH-JKMN' }));
    expect(screen.queryByTestId('voucher-line')).toBeNull();
    expect(total()).toHaveTextContent('$39.95');
    expect(t.store.getState().booking.vouchers).toBeNull();
  });

  it("refused: the server's reason beside the field; a code that cannot be one is not sent", async () => {
    const t = renderStep(1);
    t.view();
    await userEvent.type(field(), 'ZZZZ-ZZZZ-ZZZZ{Enter}');
    expect(await vouchers().findByRole('alert')).toHaveTextContent(NO_VOUCHER);
    expect(field()).toHaveAttribute('aria-invalid', 'true');
    expect(field()).toHaveAccessibleDescription(NO_VOUCHER);
    expect(screen.queryByTestId('voucher-line')).toBeNull();
    expect(total()).toHaveTextContent('$39.95');
    expect(t.sent).toHaveLength(1);

    await userEvent.clear(field());
    await userEvent.type(field(), 'ABCD-1234{Enter}');
    expect(vouchers().getByRole('alert')).toHaveTextContent('A voucher code is 12 letters and numbers');
    expect(t.sent).toHaveLength(1);
  });

  it('paying it all, change left on the voucher: nothing for the card, and Continue confirms the booking', async () => {
    const t = renderStep(1);
    t.view();
    await userEvent.type(field(), 'PQRS-TUVW-XYZ2{Enter}');
    expect(await screen.findByTestId('voucher-line')).toHaveTextContent('−$39.95');
    expect(total()).toHaveTextContent('$0.00');
    expect(screen.getByRole('button', { name: 'Confirm booking' })).toBeInTheDocument();
    // Nothing is left to pay: no field for another.
    expect(screen.queryByRole('textbox', { name: /gift voucher/i })).toBeNull();
  });

  it("offers the family's own vouchers with something left in one tap", async () => {
    const t = renderStep(2, null, 0, [
      aVoucher({}),
      aVoucher({ id: '6c0a0b1e-3c1a-4b7e-9a51-5d0e8c1f2a01', code: 'PQRS-TUVW-XYZ2', bought: true, claimed: false }),
      aVoucher({
        id: '7c0a0b1e-3c1a-4b7e-9a51-5d0e8c1f2a01',
        code: 'HJKM-NPQR-STUV',
        status: 'spent',
        balanceCents: 0,
      }),
    ]);
    t.view();
    const use = await screen.findByRole('button', { name: 'Use ABCD-EFGH-JKMN ($30.00 left)' });
    // Bought to give away, or used up: not offered.
    expect(screen.queryByRole('button', { name: /Use PQRS/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Use HJKM/ })).toBeNull();
    await userEvent.click(use);
    expect(await screen.findByTestId('voucher-line')).toHaveTextContent('−$30.00');
    expect(total()).toHaveTextContent('$49.90');
    expect(screen.queryByRole('button', { name: /^Use ABCD/ })).toBeNull();
  });

  it('pays before the account credit: the credit pays what the vouchers leave', async () => {
    const t = renderStep(2, null, CREDIT);
    t.view();
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Pay with my account credit' }));
    await userEvent.type(field(), 'ABCD-EFGH-JKMN{Enter}');
    expect(await screen.findByTestId('voucher-line')).toHaveTextContent('−$30.00');
    expect(screen.getByTestId('credit-line')).toHaveTextContent('−$25.00');
    expect(total()).toHaveTextContent('$24.90');
    expect(t.sent.at(-1)).toMatchObject({ useCredit: true, vouchers: ['ABCD-EFGH-JKMN'] });
  });

  it('vouchers priced for another cart (a donation added since) are priced again when Overview opens', async () => {
    const t = renderStep(1, CHARITY.name);
    t.store.dispatch(
      setVouchers({ codes: ['ABCD-EFGH-JKMN'], parts: [{ code: 'ABCD-EFGH-JKMN', cents: 3000 }], pricedFor: 'old' }),
    );
    t.store.dispatch(setDonation(500));
    t.view();
    expect(vouchers().getByText('being checked…')).toBeInTheDocument();
    expect(await screen.findByTestId('voucher-line')).toHaveTextContent('−$30.00');
    expect(total()).toHaveTextContent('$14.95');
    expect(t.sent).toEqual([expect.objectContaining({ donationCents: 500, vouchers: ['ABCD-EFGH-JKMN'] })]);
  });

  it('takes up to three', async () => {
    const t = renderStep(1);
    const codes = ['ABCD-EFGH-JKMN', 'PQRS-TUVW-XYZ2', 'HJKM-NPQR-STUV'];
    t.store.dispatch(setVouchers({ codes, parts: [], pricedFor: null }));
    t.view();
    // The first two pay it all; the server leaves the third out.
    expect(await screen.findAllByTestId('voucher-line')).toHaveLength(2);
    expect(vouchers().getByText('not needed: the total is paid')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /gift voucher/i })).toBeNull();
    expect(vouchers().getByText('Up to 3 gift vouchers can pay for one booking.')).toBeInTheDocument();
  });
});
