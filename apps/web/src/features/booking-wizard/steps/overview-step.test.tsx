import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { setDonation, setPromo } from '../state/booking-slice';
import { CHARITY, CREDIT, order, REFUSAL, renderStep } from './overview-step-fixture';

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
