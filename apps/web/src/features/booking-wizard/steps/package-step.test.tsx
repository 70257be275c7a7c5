import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AddOn, Package } from '@kringle/contracts/catalogue';
import { setLocation, setReservationData, toggleSlotType } from '../state/booking-slice';
import { CartSummaryBar } from '../checkout/cart-summary-bar';
import { SYDNEY_FIXTURE, wizardTestStore } from '../state/wizard-test-store';
import { PackageStep } from './package-step';

const location = SYDNEY_FIXTURE;
const pkg = (id: string, name: string, priceCents: number): Package => ({
  id,
  type: 'package',
  name,
  description: 'Photos with Santa',
  includes: ['One print'],
  priceCents,
  currency: 'AUD',
  imageUrl: '',
  maxQuantity: 3,
});
const packages = [
  pkg('p1', 'Classic Print', 3995),
  pkg('p2', 'Deluxe Sleigh', 8995),
  pkg('p3', 'Family Keepsake', 5995),
  pkg('p4', 'Digital Memories', 2995),
];
const addOns: AddOn[] = [
  {
    id: 'a1',
    type: 'add_on',
    name: 'Photo ornament',
    description: 'A ceramic ornament',
    priceCents: 1995,
    currency: 'AUD',
    maxQuantity: 10,
  },
];

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

  it(
    'needs a package to continue; the main package is one choice, replaced by another, with live line and cart ' +
      'totals',
    async () => {
      const { store } = renderStep();
      await screen.findByText('Classic Print');
      expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
      expect(total()).toHaveTextContent('$0.00');
      // No quantity to set on a package: it is chosen like one thing.
      expect(screen.queryByRole('button', { name: /Add one (Classic Print|Deluxe Sleigh)/ })).toBeNull();

      await userEvent.click(screen.getByRole('radio', { name: /Classic Print/ }));
      expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
      expect(total()).toHaveTextContent('$39.95');
      expect(store.getState().booking.packages.p1).toEqual({
        _id: 'p1',
        type: 'package',
        totalQuantity: 1,
        totalPrice: 3995,
        remove: false,
      });

      // Another main package replaces it: no two overlapping packages by accident.
      await userEvent.click(screen.getByRole('radio', { name: /Deluxe Sleigh/ }));
      expect(screen.getByRole('radio', { name: /Deluxe Sleigh/ })).toBeChecked();
      expect(screen.getByRole('radio', { name: /Classic Print/ })).not.toBeChecked();
      expect(total()).toHaveTextContent('$89.95');
      expect(store.getState().booking.packages.p1).toBeUndefined();

      await userEvent.click(screen.getByRole('radio', { name: /Classic Print/ }));
      await userEvent.click(screen.getByRole('button', { name: 'Add one Photo ornament' }));
      await userEvent.click(screen.getByRole('button', { name: 'Add one Photo ornament' }));
      const line = within(screen.getByTestId('item-a1'));
      expect(line.getByText('$39.90')).toBeInTheDocument();
      expect(total()).toHaveTextContent('$79.85');

      await userEvent.click(screen.getByRole('button', { name: 'Remove one Photo ornament' }));
      expect(total()).toHaveTextContent('$59.90');
    },
  );

  it('adds another package only when asked, and stops at three packages in total', async () => {
    renderStep();
    await screen.findByText('Classic Print');
    await userEvent.click(screen.getByRole('radio', { name: /Classic Print/ }));
    expect(screen.queryByRole('button', { name: 'Add Deluxe Sleigh' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Add another package' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add Deluxe Sleigh' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add Family Keepsake' }));
    expect(screen.getByRole('button', { name: 'Add Digital Memories' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Remove Deluxe Sleigh' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('3 of up to 3 packages')).toBeInTheDocument();
    expect(total()).toHaveTextContent('$189.85');
    await userEvent.click(screen.getByRole('button', { name: 'Remove Deluxe Sleigh' }));
    expect(screen.getByRole('button', { name: 'Add Digital Memories' })).toBeEnabled();
    expect(total()).toHaveTextContent('$99.90');
  });

  it('records add_to_cart and remove_from_cart in AUD with items', async () => {
    renderStep();
    await screen.findByText('Classic Print');
    await userEvent.click(screen.getByRole('radio', { name: /Deluxe Sleigh/ }));
    await userEvent.click(screen.getByRole('radio', { name: /Classic Print/ }));
    expect(window.__kringleAnalytics?.map((e) => [e.event, e.params])).toEqual([
      [
        'add_to_cart',
        {
          currency: 'AUD',
          value: 89.95,
          items: [{ item_id: 'p2', item_name: 'Deluxe Sleigh', item_category: 'package', price: 89.95, quantity: 1 }],
        },
      ],
      [
        'remove_from_cart',
        {
          currency: 'AUD',
          value: 89.95,
          items: [{ item_id: 'p2', item_name: 'Deluxe Sleigh', item_category: 'package', price: 89.95, quantity: 1 }],
        },
      ],
      [
        'add_to_cart',
        {
          currency: 'AUD',
          value: 39.95,
          items: [{ item_id: 'p1', item_name: 'Classic Print', item_category: 'package', price: 39.95, quantity: 1 }],
        },
      ],
    ]);
  });
});
