import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AddOn, Package } from '@kringle/contracts/catalogue';
import { setLocation, setReservationData, toggleSlotType } from '../booking-slice';
import { CartSummaryBar } from '../checkout/cart-summary-bar';
import { SYDNEY_FIXTURE, wizardTestStore } from '../wizard-test-store';
import { PackageStep } from './package-step';

const location = SYDNEY_FIXTURE;
const pkg = (id: string, name: string, priceCents: number): Package => ({ id, type: 'package', name, description: 'Photos with Santa', includes: ['One print'], priceCents, currency: 'AUD', imageUrl: '', maxQuantity: 3 });
const packages = [pkg('p1', 'Classic Print', 3995), pkg('p2', 'Deluxe Sleigh', 8995)];
const addOns: AddOn[] = [{ id: 'a1', type: 'add_on', name: 'Photo ornament', description: 'A ceramic ornament', priceCents: 1995, currency: 'AUD', maxQuantity: 10 }];

function renderStep() {
  const t = wizardTestStore({ 'GET /product/packages': { items: packages }, 'GET /product/addons': { items: addOns } });
  t.store.dispatch(setLocation(location));
  t.store.dispatch(toggleSlotType(location.slotTypes[0]!));
  t.store.dispatch(setReservationData({ holdId: 'h1', slotId: 's1', expiresAt: '2099-01-01T00:00:00.000Z' }));
  render(
    <Provider store={t.store}>
      <MemoryRouter>
        <PackageStep focusOnMount={false} />
        <CartSummaryBar />
      </MemoryRouter>
    </Provider>,
  );
  return t;
}

const total = () => screen.getByTestId('cart-total');

describe('PackageStep', () => {
  beforeEach(() => {
    window.__kringleAnalytics = [];
  });

  it('needs a package to continue and keeps live line and cart totals', async () => {
    const { store } = renderStep();
    await screen.findByText('Classic Print');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
    expect(total()).toHaveTextContent('$0.00');

    await userEvent.click(screen.getByRole('button', { name: 'Add one Classic Print' }));
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
    expect(total()).toHaveTextContent('$39.95');
    expect(store.getState().booking.packages.p1).toEqual({ _id: 'p1', type: 'package', totalQuantity: 1, totalPrice: 3995, remove: false });

    await userEvent.click(screen.getByRole('button', { name: 'Add one Classic Print' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add one Photo ornament' }));
    const line = within(screen.getByTestId('item-p1'));
    expect(line.getByText('$79.90')).toBeInTheDocument();
    expect(total()).toHaveTextContent('$99.85');

    await userEvent.click(screen.getByRole('button', { name: 'Remove one Classic Print' }));
    expect(total()).toHaveTextContent('$59.90');
  });

  it('stops at three packages in total', async () => {
    renderStep();
    await screen.findByText('Classic Print');
    for (let i = 0; i < 2; i++) await userEvent.click(screen.getByRole('button', { name: 'Add one Classic Print' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add one Deluxe Sleigh' }));
    expect(screen.getByRole('button', { name: 'Add one Deluxe Sleigh' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Add one Classic Print' })).toBeDisabled();
    expect(screen.getByText('3 of up to 3 chosen')).toBeInTheDocument();
    expect(total()).toHaveTextContent('$169.85');
  });

  it('records add_to_cart and remove_from_cart in AUD with items', async () => {
    renderStep();
    await screen.findByText('Classic Print');
    await userEvent.click(screen.getByRole('button', { name: 'Add one Deluxe Sleigh' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove one Deluxe Sleigh' }));
    expect(window.__kringleAnalytics?.map((e) => [e.event, e.params])).toEqual([
      ['add_to_cart', { currency: 'AUD', value: 89.95, items: [{ item_id: 'p2', item_name: 'Deluxe Sleigh', item_category: 'package', price: 89.95, quantity: 1 }] }],
      ['remove_from_cart', { currency: 'AUD', value: 89.95, items: [{ item_id: 'p2', item_name: 'Deluxe Sleigh', item_category: 'package', price: 89.95, quantity: 1 }] }],
    ]);
  });
});
