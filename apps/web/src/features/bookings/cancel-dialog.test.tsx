import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { aBooking } from './booking-fixture';
import { CancelDialog, refundWording } from './cancel-dialog';

describe('refundWording', () => {
  it('states the refund in dollars from refundableCents', () => {
    expect(refundWording(aBooking({ refundableCents: 6995 }))).toBe(
      'You will be refunded $69.95 to the card you paid with.',
    );
  });
  it('says a paid booking past the refund cut-off will not be refunded', () => {
    expect(refundWording(aBooking({ refundableCents: 0 }))).toMatch(/will not be refunded/);
  });
  it('says a refund taken as credit is credit at once', () => {
    expect(refundWording(aBooking({ refundableCents: 6995 }), 'credit')).toBe(
      '$69.95 will be added to your account credit at once, for a later booking.',
    );
  });
  it('says an unpaid booking has nothing to refund', () => {
    expect(refundWording(aBooking({ status: 'payment_pending', refundableCents: 0 }))).toMatch(/not been charged/);
  });
});

describe('CancelDialog', () => {
  const renderDialog = (props: Partial<Parameters<typeof CancelDialog>[0]> = {}) => {
    const onConfirm = vi.fn();
    const onOpenChange = vi.fn();
    render(
      <CancelDialog
        booking={aBooking()}
        open
        busy={false}
        onConfirm={onConfirm}
        onOpenChange={onOpenChange}
        {...props}
      />,
    );
    return { onConfirm, onOpenChange };
  };

  it('says the refund before confirming and starts on Keep booking', () => {
    renderDialog();
    const dialog = screen.getByRole('alertdialog', { name: 'Cancel this booking?' });
    expect(dialog).toHaveAccessibleDescription(/You will be refunded \$69\.95/);
    expect(dialog).toHaveTextContent('Sun 6 Dec, 10:40 am AEDT');
    expect(screen.getByRole('button', { name: 'Keep booking' })).toHaveFocus();
  });

  it('confirms only on Cancel booking; Keep booking closes', async () => {
    const { onConfirm, onOpenChange } = renderDialog();
    await userEvent.click(screen.getByRole('button', { name: 'Keep booking' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(onConfirm).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel booking' }));
    expect(onConfirm).toHaveBeenCalledExactlyOnceWith('card');
  });

  it('asks where a refund goes: the card by default, or account credit, said before confirming', async () => {
    const { onConfirm } = renderDialog();
    const group = screen.getByRole('group', { name: 'Where should the refund go?' });
    expect(within(group).getByRole('radio', { name: /Back to my card/ })).toBeChecked();
    await userEvent.click(within(group).getByRole('radio', { name: /Keep it as account credit/ }));
    expect(screen.getByTestId('refund-wording')).toHaveTextContent('$69.95 will be added to your account credit');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel booking' }));
    expect(onConfirm).toHaveBeenCalledExactlyOnceWith('credit');
  });

  it('asks nothing of a booking with no refund', () => {
    renderDialog({ booking: aBooking({ refundableCents: 0 }) });
    expect(screen.queryByRole('group', { name: 'Where should the refund go?' })).toBeNull();
  });

  it('holds both buttons while cancelling', () => {
    renderDialog({ busy: true });
    expect(screen.getByRole('button', { name: 'Cancelling…' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Keep booking' })).toBeDisabled();
  });

  it('says when there is no refund', () => {
    renderDialog({ booking: aBooking({ refundableCents: 0 }) });
    expect(screen.getByTestId('refund-wording')).toHaveTextContent('This booking will not be refunded');
  });
});
