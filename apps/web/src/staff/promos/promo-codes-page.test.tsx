import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PromoCode } from '@kringle/contracts/promos';
import { fakeStaffApi, json } from '../parts/fake-staff-api';
import { PromoCodesPage } from './promo-codes-page';

const SYDNEY = 'l-syd';
const locations = [
  {
    id: SYDNEY,
    name: 'Sydney Pitt Street',
    address: '188 Pitt Street',
    timezone: 'Australia/Sydney',
    queueOpensAt: null,
  },
  {
    id: 'l-mel',
    name: 'Melbourne Bourke Street',
    address: '1 Bourke Street',
    timezone: 'Australia/Melbourne',
    queueOpensAt: null,
  },
];
const promo = (over: Partial<PromoCode>): PromoCode => ({
  id: 'pc-1',
  code: 'ELVES-5',
  kind: 'amount',
  value: 500,
  validFrom: '2026-11-30T13:00:00.000Z',
  validTo: '2026-12-24T12:59:59.000Z',
  locationIds: null,
  slotTypeIds: null,
  maxUses: 100,
  maxUsesPerFamily: 1,
  minSpendCents: 3000,
  active: true,
  uses: 3,
  createdAt: '2026-11-01T00:00:00.000Z',
  ...over,
});

afterEach(() => vi.unstubAllGlobals());

describe('the promo codes page', () => {
  it('lists the codes with their rules and uses, and switches one off', async () => {
    const calls = fakeStaffApi((path, init) => {
      if (path === '/staff/promo-codes') return json(200, { items: [promo({})] });
      if (path === '/staff/promo-codes/pc-1' && init?.method === 'PATCH') return json(200, promo({ active: false }));
    });
    render(<PromoCodesPage locations={locations} timezone="Australia/Sydney" />);
    const row = await screen.findByRole('row', { name: /ELVES-5/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      '$5.00 off',
      '1 Dec 2026 to 24 Dec 2026',
      'All locations',
      '3 of 100',
      '1',
      '$30.00',
      'Active',
      'Deactivate',
    ]);
    await userEvent.click(within(row).getByRole('button', { name: 'Deactivate ELVES-5' }));
    expect(await within(row).findByText('Inactive')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Activate ELVES-5' })).toBeInTheDocument();
    expect(calls.find((c) => c.call === 'PATCH /staff/promo-codes/pc-1')?.body).toEqual({ active: false });
  });

  it("creates a percent code over whole days in the location's zone, with the API's errors beside fields", async () => {
    let attempt = 0;
    const calls = fakeStaffApi((path, init) => {
      if (path === '/staff/promo-codes' && !init?.method) return json(200, { items: [] });
      if (path !== '/staff/promo-codes') return undefined;
      attempt += 1;
      if (attempt === 1) return json(409, { error: 'There is a promo code XMAS10 already.', code: 'PROMO_CODE_TAKEN' });
      if (attempt === 2)
        return json(400, {
          error: 'Check the highlighted fields.',
          code: 'VALIDATION_FAILED',
          details: [{ path: 'body.value', message: 'A percent is 1 to 100; an amount off is $1 to $500, in cents' }],
        });
      return json(
        201,
        promo({
          id: 'pc-2',
          code: 'XMAS11',
          kind: 'percent',
          value: 10,
          maxUses: null,
          uses: 0,
          minSpendCents: null,
          locationIds: [SYDNEY],
        }),
      );
    });
    render(<PromoCodesPage locations={locations} timezone="Australia/Sydney" />);
    expect(await screen.findByText('No promo codes yet.')).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'New promo code' });
    const field = (name: string) => within(form).getByLabelText(name);

    await userEvent.click(within(form).getByRole('button', { name: 'Create code' }));
    expect(field('Code')).toHaveAccessibleDescription('Enter the code families will type.');
    expect(calls.filter((c) => c.call === 'POST /staff/promo-codes')).toHaveLength(0);

    await userEvent.type(field('Code'), 'xmas10');
    await userEvent.type(field('Percent off (1 to 100)'), '10');
    await userEvent.clear(field('First day'));
    await userEvent.type(field('First day'), '2026-12-01');
    await userEvent.clear(field('Last day'));
    await userEvent.type(field('Last day'), '2026-12-24');
    await userEvent.click(within(form).getByLabelText('Sydney Pitt Street'));
    await userEvent.click(within(form).getByRole('button', { name: 'Create code' }));
    await vi.waitFor(() => expect(field('Code')).toHaveAccessibleDescription('There is a promo code XMAS10 already.'));
    expect(calls.find((c) => c.call === 'POST /staff/promo-codes')?.body).toEqual({
      code: 'xmas10',
      kind: 'percent',
      value: 10,
      // Midnight to the last second of the day, Sydney summer time (UTC+11).
      validFrom: '2026-11-30T13:00:00.000Z',
      validTo: '2026-12-24T12:59:59.000Z',
      locationIds: [SYDNEY],
      maxUses: null,
      maxUsesPerFamily: 1,
      minSpendCents: null,
    });

    await userEvent.clear(field('Code'));
    await userEvent.type(field('Code'), 'XMAS11');
    await userEvent.click(within(form).getByRole('button', { name: 'Create code' }));
    await vi.waitFor(() =>
      expect(field('Percent off (1 to 100)')).toHaveAccessibleDescription(
        'A percent is 1 to 100; an amount off is $1 to $500, in cents',
      ),
    );
    expect(field('Code')).not.toHaveAttribute('aria-invalid');

    // Dollars are sent in cents.
    await userEvent.selectOptions(field('Discount'), 'amount');
    await userEvent.clear(field('Dollars off'));
    await userEvent.type(field('Dollars off'), '5.50');
    await userEvent.type(field('Minimum spend in dollars (optional)'), '30');
    await userEvent.click(within(form).getByRole('button', { name: 'Create code' }));
    expect(await screen.findByRole('row', { name: /XMAS11/ })).toHaveTextContent('Sydney Pitt Street');
    expect(calls.filter((c) => c.call === 'POST /staff/promo-codes').at(-1)?.body).toMatchObject({
      kind: 'amount',
      value: 550,
      minSpendCents: 3000,
    });
    expect(screen.getByText(/XMAS11 created/)).toBeInTheDocument();
    expect(field('Code')).toHaveValue('');
  });
});
