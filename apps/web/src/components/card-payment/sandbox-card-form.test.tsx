import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SandboxCardForm } from './sandbox-card-form';

describe('SandboxCardForm', () => {
  it('has labelled numeric card fields with card autocomplete', () => {
    render(<SandboxCardForm payLabel="Pay $39.95" busy={false} onPay={() => {}} />);
    expect(screen.getByLabelText('Card number')).toHaveAttribute('autocomplete', 'cc-number');
    expect(screen.getByLabelText('Card number')).toHaveAttribute('inputmode', 'numeric');
    expect(screen.getByLabelText('Expiry date')).toHaveAttribute('autocomplete', 'cc-exp');
    expect(screen.getByLabelText('Security code')).toHaveAttribute('autocomplete', 'cc-csc');
    expect(screen.getByLabelText('Security code')).toHaveAttribute('inputmode', 'numeric');
    expect(screen.getByLabelText('Name on card')).toHaveAttribute('autocomplete', 'cc-name');
  });

  it('shows every problem, focuses the first and does not pay', async () => {
    const onPay = vi.fn();
    render(<SandboxCardForm payLabel="Pay $39.95" busy={false} onPay={onPay} />);
    await userEvent.click(screen.getByRole('button', { name: 'Pay $39.95' }));
    expect(onPay).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Card number')).toHaveFocus();
    expect(screen.getByLabelText('Card number')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Card number')).toHaveAccessibleDescription('Enter your card number.');
    expect(screen.getByText('Enter the name on the card.')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Card number'), '4242424242424241');
    await userEvent.type(screen.getByLabelText('Expiry date'), '1230');
    await userEvent.type(screen.getByLabelText('Security code'), '123');
    await userEvent.type(screen.getByLabelText('Name on card'), 'Holly Berry');
    await userEvent.click(screen.getByRole('button', { name: 'Pay $39.95' }));
    expect(onPay).not.toHaveBeenCalled();
    expect(screen.getByText('Check your card number: it does not look right.')).toBeInTheDocument();
  });

  it('pays with the details as typed, formatted', async () => {
    const onPay = vi.fn();
    render(<SandboxCardForm payLabel="Pay $39.95" busy={false} onPay={onPay} />);
    await userEvent.type(screen.getByLabelText('Card number'), '4242424242424242');
    await userEvent.type(screen.getByLabelText('Expiry date'), '1230');
    await userEvent.type(screen.getByLabelText('Security code'), '123');
    await userEvent.type(screen.getByLabelText('Name on card'), 'Holly Berry');
    expect(screen.getByLabelText('Card number')).toHaveValue('4242 4242 4242 4242');
    expect(screen.getByLabelText('Expiry date')).toHaveValue('12 / 30');
    await userEvent.click(screen.getByRole('button', { name: 'Pay $39.95' }));
    expect(onPay).toHaveBeenCalledWith({
      number: '4242 4242 4242 4242',
      expiry: '12 / 30',
      cvc: '123',
      name: 'Holly Berry',
    });
  });
});
