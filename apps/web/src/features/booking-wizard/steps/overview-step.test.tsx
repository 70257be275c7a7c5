import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { Package } from '@kringle/contracts/catalogue';
import type { Voucher } from '@kringle/contracts/vouchers';
import { cartLine } from '../checkout/cart-math';
import {
  setDonation,
  setLocation,
  setPromo,
  setReservationData,
  setVouchers,
  toggleSlotType,
  upsertItem,
} from '../state/booking-slice';
import { SYDNEY_FIXTURE, wizardTestStore } from '../state/wizard-test-store';
import { OverviewStep } from './overview-step';

const classic: Package = {
  id: 'p1',
  type: 'package',
  name: 'Classic Print',
  description: '',
  includes: [],
  priceCents: 3995,
  currency: 'AUD',
  imageUrl: '',
  maxQuantity: 3,
};
const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const REFUSAL = 'NOPE is not a promo code we know. Check the spelling, or book without it.';

/** Gift vouchers the test API knows, by code, with their balances. */
const BALANCES: Record<string, number> = { 'ABCD-EFGH-JKMN': 3000, 'PQRS-TUVW-XYZ2': 10_000, 'HJKM-NPQR-STUV': 500 };
const NO_VOUCHER = 'There is no gift voucher with this code.';

/**
 * POST /cart as the API prices it: XMAS10 takes 10% off, any other code is unknown; vouchers pay next, in order,
 * each as much as it holds of what is left, then credit.
 */
function cartAnswer(_url: string, init: RequestInit) {
  const body = JSON.parse(String(init.body)) as {
    amount: number;
    promoCode?: string;
    donationCents?: number;
    useCredit?: boolean;
    vouchers?: string[];
  };
  const unknown = (body.vouchers ?? []).findIndex((c) => !(c in BALANCES));
  if (unknown >= 0)
    return json(
      {
        error: NO_VOUCHER,
        code: 'VOUCHER_INVALID',
        details: [{ path: `body.vouchers.${unknown}`, message: NO_VOUCHER }],
      },
      409,
    );
  if (body.promoCode && body.promoCode !== 'XMAS10')
    return json(
      { error: REFUSAL, code: 'PROMO_INVALID', details: [{ path: 'body.promoCode', message: 'unknown' }] },
      409,
    );
  const cents = body.promoCode ? Math.round(body.amount / 10) : 0;
  const total = body.amount - cents + (body.donationCents ?? 0);
  let left = total;
  const vouchers = (body.vouchers ?? []).flatMap((code) => {
    const paid = Math.min(left, BALANCES[code]!);
    left -= paid;
    return paid > 0 ? [{ kind: 'voucher', code, cents: paid }] : [];
  });
  const credit = body.useCredit ? Math.min(left, CREDIT) : 0;
  return json(
    {
      id: 'c1',
      reservationId: 'h1',
      items: [],
      amountCents: body.amount,
      gstCents: Math.round((body.amount - cents) / 11),
      discounts: body.promoCode ? [{ kind: 'promo', code: body.promoCode, cents }] : [],
      payments: [...vouchers, ...(credit > 0 ? [{ kind: 'credit', cents: credit }] : [])],
      donationCents: body.donationCents ?? 0,
      dueCents: left - credit,
      currency: 'AUD',
    },
    201,
  );
}

const CHARITY = { name: 'Kids Cancer Care', suggestedCents: [200, 500, 1000], maxCents: 10000 };
/** The family's account credit in these tests, when it has some. */
const CREDIT = 2500;

function renderStep(quantity = 2, charityName: string | null = null, creditCents = 0, owned: Voucher[] = []) {
  const sent: { promoCode?: string; donationCents?: number; useCredit?: boolean; vouchers?: string[] }[] = [];
  const t = wizardTestStore({
    'GET /common/charity': { ...CHARITY, name: charityName },
    'GET /user/credit': { balanceCents: creditCents, items: [] },
    'GET /vouchers': { items: owned },
    'GET /product/packages': { items: [classic] },
    'GET /product/addons': { items: [] },
    'POST /cart': (url: string, init: RequestInit) => {
      sent.push(JSON.parse(String(init.body)) as { promoCode?: string; donationCents?: number });
      return cartAnswer(url, init);
    },
  });
  t.store.dispatch(setLocation(SYDNEY_FIXTURE));
  t.store.dispatch(toggleSlotType(SYDNEY_FIXTURE.slotTypes[0]!));
  t.store.dispatch(setReservationData({ holdId: 'h1', slotId: 's1', expiresAt: '2099-01-01T00:00:00.000Z' }));
  t.store.dispatch(upsertItem(cartLine(classic, quantity)));
  const view = () =>
    render(
      <Provider store={t.store}>
        <MemoryRouter>
          <OverviewStep focusOnMount={false} />
        </MemoryRouter>
      </Provider>,
    );
  return { ...t, sent, view };
}

const order = () => within(screen.getByRole('region', { name: 'Your order' }));
const promoField = () => within(screen.getByTestId('promo-code'));

describe('Overview: the promo code', () => {
  it('applied: priced by the server, shown as a line with the lower total and GST; Remove takes it off', async () => {
    const t = renderStep();
    t.view();
    expect(screen.getByTestId('overview-total')).toHaveTextContent('$79.90');
    await userEvent.type(screen.getByRole('textbox', { name: 'Promo code' }), 'xmas10');
    await userEvent.click(promoField().getByRole('button', { name: 'Apply' }));

    const line = await screen.findByTestId('promo-line');
    expect(line).toHaveTextContent('Promo XMAS10');
    expect(line).toHaveTextContent('−$7.99');
    expect(screen.getByTestId('overview-total')).toHaveTextContent('$71.91');
    expect(order().getByText('GST included').nextElementSibling).toHaveTextContent('$6.54');
    // By its words: the lazy "Who's coming" form has status outputs of its own once it has loaded.
    expect(screen.getByText('Promo code XMAS10 applied: $7.99 off, $71.91 to pay.')).toHaveAttribute('role', 'status');
    expect(t.sent).toEqual([expect.objectContaining({ amount: 7990, promoCode: 'XMAS10' })]);
    expect(t.store.getState().booking.promo).toMatchObject({ code: 'XMAS10', cents: 799, dueCents: 7191 });
    const remove = screen.getByRole('button', { name: 'Remove promo code XMAS10' });
    await vi.waitFor(() => expect(remove).toHaveFocus());

    await userEvent.click(remove);
    expect(screen.queryByTestId('promo-line')).toBeNull();
    expect(screen.getByTestId('overview-total')).toHaveTextContent('$79.90');
    expect(t.store.getState().booking.promo).toBeNull();
    await vi.waitFor(() => expect(screen.getByRole('textbox', { name: 'Promo code' })).toHaveFocus());
  });

  it("refused: the server's sentence beside the field, described by it and announced; the price stays", async () => {
    const t = renderStep();
    t.view();
    const field = screen.getByRole('textbox', { name: 'Promo code' });
    await userEvent.type(field, 'nope{Enter}');

    expect(await promoField().findByRole('alert')).toHaveTextContent(REFUSAL);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(REFUSAL);
    expect(screen.queryByTestId('promo-line')).toBeNull();
    expect(screen.getByTestId('overview-total')).toHaveTextContent('$79.90');
    expect(t.store.getState().booking.promo).toBeNull();

    // An empty field is not sent.
    await userEvent.clear(field);
    await userEvent.click(promoField().getByRole('button', { name: 'Apply' }));
    expect(promoField().getByRole('alert')).toHaveTextContent('Enter a code.');
    expect(t.sent).toHaveLength(1);
  });

  it('a code applied to other packages is priced again when Overview opens', async () => {
    const t = renderStep(1);
    t.store.dispatch(
      setPromo({ code: 'XMAS10', cents: 799, gstCents: 654, dueCents: 7191, goodsCents: 7990, holdId: 'h1' }),
    );
    t.view();
    expect(await screen.findByTestId('promo-line')).toHaveTextContent('−$4.00');
    expect(screen.getByTestId('overview-total')).toHaveTextContent('$35.95');
    expect(t.sent).toEqual([expect.objectContaining({ amount: 3995, promoCode: 'XMAS10' })]);
  });
});

describe('Overview: the donation', () => {
  const total = () => screen.getByTestId('overview-total');
  const gst = () => order().getByText('GST included').nextElementSibling;

  it('one tap adds a suggested amount as its own line: the total rises, the GST does not', async () => {
    const t = renderStep(2, CHARITY.name);
    t.view();
    const group = await screen.findByRole('group', { name: 'Add a donation to Kids Cancer Care?' });
    expect(within(group).getByRole('radio', { name: 'No thanks' })).toBeChecked();
    expect(screen.queryByTestId('donation-line')).toBeNull();

    await userEvent.click(within(group).getByRole('radio', { name: '$5' }));
    expect(await screen.findByTestId('donation-line')).toHaveTextContent('Donation to Kids Cancer Care (no GST)$5.00');
    expect(total()).toHaveTextContent('$84.90');
    expect(gst()).toHaveTextContent('$7.26');

    // With a promo code too: the code comes off the goods only.
    await userEvent.type(screen.getByRole('textbox', { name: 'Promo code' }), 'xmas10{Enter}');
    await screen.findByTestId('promo-line');
    expect(total()).toHaveTextContent('$76.91');
    expect(gst()).toHaveTextContent('$6.54');
    expect(t.sent).toEqual([expect.objectContaining({ amount: 7990, promoCode: 'XMAS10', donationCents: 500 })]);

    await userEvent.click(within(group).getByRole('radio', { name: 'No thanks' }));
    expect(screen.queryByTestId('donation-line')).toBeNull();
    expect(total()).toHaveTextContent('$71.91');
  });

  it('another amount is typed in dollars; a wrong one is said beside the field and adds nothing', async () => {
    const t = renderStep(1, CHARITY.name);
    t.view();
    await userEvent.click(await screen.findByRole('radio', { name: 'Other amount' }));
    const field = screen.getByRole('textbox', { name: 'Amount (AUD, up to $100.00)' });
    await vi.waitFor(() => expect(field).toHaveFocus());

    await userEvent.type(field, '150{Enter}');
    expect(field).toHaveAccessibleDescription('Enter an amount up to $100.00, such as 7 or 7.50.');
    expect(within(screen.getByTestId('donation')).getByRole('alert')).toHaveTextContent(/up to \$100.00/);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(t.store.getState().booking.donationCents).toBe(0);

    await userEvent.clear(field);
    await userEvent.type(field, '7.5{Enter}');
    expect(field).toHaveValue('7.50');
    expect(screen.getByTestId('donation-line')).toHaveTextContent('$7.50');
    expect(total()).toHaveTextContent('$47.45');
    expect(t.store.getState().booking.donationCents).toBe(750);
  });

  it('coming back to Overview shows the amount kept: a suggested one as its radio, another as Other', async () => {
    const suggested = renderStep(1, CHARITY.name);
    suggested.store.dispatch(setDonation(1000));
    const first = suggested.view();
    expect(await screen.findByRole('radio', { name: '$10' })).toBeChecked();
    first.unmount();

    const own = renderStep(1, CHARITY.name);
    own.store.dispatch(setDonation(750));
    own.view();
    expect(await screen.findByRole('radio', { name: 'Other amount' })).toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Amount (AUD, up to $100.00)' })).toHaveValue('7.50');
  });

  it('is not offered when the operator names no charity', async () => {
    const t = renderStep(1, null);
    t.view();
    await vi.waitFor(() => expect(t.calls).toContain('GET /common/charity'));
    expect(screen.queryByTestId('donation')).toBeNull();
  });
});

describe('Overview: account credit', () => {
  it('offered when the family has some: ticked, it comes off what the card pays, not the GST', async () => {
    const t = renderStep(1, null, CREDIT);
    t.view();
    await vi.waitFor(() => expect(t.calls).toContain('GET /user/credit'));
    const box = await screen.findByRole('checkbox', { name: 'Pay with my account credit' });
    expect(box).toHaveAccessibleDescription('You have $25.00 of credit. It pays first; your card pays the rest.');
    expect(screen.getByTestId('overview-total')).toHaveTextContent('$39.95');
    await userEvent.click(box);
    expect(screen.getByTestId('credit-line')).toHaveTextContent('−$25.00');
    expect(screen.getByTestId('overview-total')).toHaveTextContent('$14.95');
    expect(order().getByText('GST included').nextElementSibling).toHaveTextContent('$3.63');
    expect(screen.queryByTestId('promo-line')).toBeNull();
    expect(t.store.getState().booking.creditCents).toBe(CREDIT);
    await userEvent.click(box);
    expect(screen.queryByTestId('credit-line')).toBeNull();
    expect(screen.getByTestId('overview-total')).toHaveTextContent('$39.95');
  });

  it('not offered without credit', async () => {
    const t = renderStep(1, null, 0);
    t.view();
    await vi.waitFor(() => expect(t.calls).toContain('GET /user/credit'));
    expect(screen.queryByTestId('credit')).toBeNull();
  });
});

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
