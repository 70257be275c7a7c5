import type { BookingDetails } from '@kringle/contracts/booking-details';
import type { RunSheet, StaffBooking, StaffCatalogue } from '@kringle/contracts/staff';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WalkInPage } from './walk-in-page';

const LOCATION = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Kringle Sydney',
  address: '1 Pitt Street',
  timezone: 'UTC',
  queueOpensAt: null,
};
const CLASSIC = '00000000-0000-4000-8000-0000000000a1';
const CATALOGUE: StaffCatalogue = {
  locations: [LOCATION],
  packages: [{ id: CLASSIC, name: 'Classic Print', priceCents: 2900, maxQuantity: 3, slotTypeSlugs: null }],
  addOns: [],
};
const CLASSIC_TYPE = {
  id: '00000000-0000-4000-8000-0000000000b1',
  slug: 'classic',
  name: 'Classic',
  allowsPets: false,
};
const PET_NIGHT = {
  id: '00000000-0000-4000-8000-0000000000b2',
  slug: 'pet-night',
  name: 'Pet night',
  allowsPets: true,
};
/** Sessions 1 to 3 are Classic, 4 a pet night. */
const slot = (n: number) => ({
  id: `00000000-0000-4000-8000-00000000010${n}`,
  kind: 'session' as const,
  startAt: `2026-12-01T1${n}:00:00.000Z`,
  endAt: `2026-12-01T1${n}:10:00.000Z`,
  slotType: n === 4 ? PET_NIGHT : CLASSIC_TYPE,
  state: 'free' as const,
});
/** The day's sheet: sessions 1 to 4, those in `taken` booked. */
const sheetWith = (taken: number[]) =>
  ({
    location: LOCATION,
    date: '2026-12-01',
    timezone: 'UTC',
    items: [1, 2, 3, 4].map((n) => ({
      slot: { ...slot(n), state: taken.includes(n) ? 'booked' : 'free' },
      booking: null,
    })),
  }) as unknown as RunSheet;
// The family as the API answers it: names as the parent typed them, in lower case.
const SOLD = {
  reference: 'KR-7K3Q9',
  customer: { firstName: 'holly', lastName: 'berry', email: 'holly@example.com' },
  slotType: { name: 'Classic' },
  slot: { startAt: slot(2).startAt },
  amountCents: 2900,
} as unknown as StaffBooking;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * The API as the walk-in page meets it: app check off, the run sheet, and a sale that goes through
 * (its session then booked), or, with `takenOnline`, that session booked online just before.
 */
function fakeApi({ takenOnline = false, attendance = 'confirmed' } = {}) {
  const sales: { details: BookingDetails; paidWith: string }[] = [];
  const taken: number[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = String(url).replace(/^.*\/api\/v1/, '');
      if (path.startsWith('/staff/run-sheet')) return json(200, sheetWith(taken));
      if (path === '/staff/walk-ins' && init?.method === 'POST') {
        const sale = JSON.parse(String(init.body)) as { slotId: string; details: BookingDetails; paidWith: string };
        taken.push(Number(sale.slotId.slice(-1)));
        if (takenOnline) return json(409, { error: 'Sorry, that session was just taken.', code: 'SLOT_UNAVAILABLE' });
        sales.push(sale);
        return json(201, { ...SOLD, attendance, paidWith: sale.paidWith });
      }
      return json(404, { error: 'no', code: 'NOT_FOUND' });
    }),
  );
  return sales;
}

async function openPage(options?: Parameters<typeof fakeApi>[0]) {
  const sales = fakeApi(options);
  render(<WalkInPage location={LOCATION} catalogue={CATALOGUE} initialSlotId={null} today="2026-12-01" />);
  const session = screen.getByLabelText('Free session today');
  await within(session).findByRole('option', { name: /12:00/ });
  return { sales, session };
}

const sell = () => userEvent.click(screen.getByRole('button', { name: 'Sell and mark paid in store' }));

/** The least a sale needs, the family's name and a package, then Sell. */
async function sellToHollyBerry() {
  await userEvent.type(screen.getByLabelText('First name'), 'Holly');
  await userEvent.type(screen.getByLabelText('Last name'), 'Berry');
  await userEvent.selectOptions(screen.getByLabelText('Quantity of Classic Print'), '1');
  await userEvent.click(screen.getByRole('radio', { name: 'Cash' }));
  await sell();
}

describe('walk-in', () => {
  afterEach(() => vi.unstubAllGlobals());

  it(
    'after a sale, takes focus to the confirmation (names capitalised), clears the whole family and proposes the ' +
      'next free session',
    async () => {
      const { sales, session } = await openPage();
      await userEvent.selectOptions(session, slot(2).id);
      await userEvent.type(screen.getByLabelText('First name'), 'holly');
      await userEvent.type(screen.getByLabelText('Last name'), 'berry');
      await userEvent.type(screen.getByLabelText('E-mail for the receipt (optional)'), 'holly@example.com');
      await userEvent.type(screen.getByLabelText('Child 1 first name'), 'Mia');
      await userEvent.selectOptions(screen.getByLabelText('Age'), '6');
      await userEvent.type(screen.getByLabelText('Note for Santa'), 'Loves reindeer');
      await userEvent.selectOptions(screen.getByLabelText('Quantity of Classic Print'), '1');
      await userEvent.click(screen.getByRole('radio', { name: 'EFTPOS' }));
      await sell();

      const status = await screen.findByRole('status');
      expect(status).toHaveTextContent('Sold: KR-7K3Q9 for Holly Berry, Classic at');
      expect(status).toHaveTextContent('($29.00, paid in store by EFTPOS)');
      expect(status).toHaveFocus();
      expect(sales).toEqual([
        expect.objectContaining({
          slotId: slot(2).id,
          firstName: 'holly',
          lastName: 'berry',
          email: 'holly@example.com',
          paidWith: 'eftpos',
        }),
      ]);
      // The next family is asked again how they paid: no way of paying is carried over.
      for (const method of ['Cash', 'Card', 'EFTPOS'])
        expect(screen.getByRole('radio', { name: method })).not.toBeChecked();
      expect(sales[0]!.details.children).toEqual([{ firstName: 'Mia', age: 6 }]);
      for (const field of [
        'First name',
        'Last name',
        'E-mail for the receipt (optional)',
        'Child 1 first name',
        'Age',
        'Note for Santa',
      ])
        expect(screen.getByLabelText(field)).toHaveValue('');
      expect(screen.getByLabelText('Quantity of Classic Print')).toHaveValue('0');
      expect(session).toHaveValue(slot(1).id);
      expect(screen.queryByText(/no longer free/)).not.toBeInTheDocument();
    },
  );

  it(
    'a session booked online meanwhile is not swapped for another: the form says so, and sells nothing until staff ' +
      'choose',
    async () => {
      const { sales, session } = await openPage({ takenOnline: true });
      await userEvent.selectOptions(session, slot(2).id);
      await sellToHollyBerry();

      expect(await screen.findByRole('alert')).toHaveTextContent('Sorry, that session was just taken.');
      expect(session).toHaveValue('');
      expect(session).toHaveAccessibleDescription(
        'The 12:00 pm session is no longer free (booked online, or started). Choose another session.',
      );
      const sell = screen.getByRole('button', { name: 'Sell and mark paid in store' });
      expect(sell).toBeDisabled();
      // Said at the button too: on a phone the session field is out of sight from there.
      expect(sell).toHaveAccessibleDescription('Choose a session first: 12:00 pm is no longer free.');
      // The family stays typed in: only the session needs choosing again.
      expect(screen.getByLabelText('First name')).toHaveValue('Holly');
      expect(sales).toEqual([]);
    },
  );

  it('an empty sale is refused beside each field, as the customer app does, and nothing is sent', async () => {
    const { sales } = await openPage();
    await userEvent.type(screen.getByLabelText('E-mail for the receipt (optional)'), 'not-an-email');
    await sell();

    const first = screen.getByLabelText('First name');
    expect(first).toHaveFocus();
    expect(first).toHaveAttribute('aria-invalid', 'true');
    expect(first).toHaveAccessibleDescription('Enter the first name.');
    expect(screen.getByLabelText('Last name')).toHaveAccessibleDescription('Enter the last name.');
    expect(screen.getByLabelText('E-mail for the receipt (optional)')).toHaveAccessibleDescription(
      'Enter a valid e-mail address, or leave it empty.',
    );
    expect(screen.getByRole('group', { name: 'Packages and add-ons' })).toHaveAccessibleDescription(
      'Choose at least one package',
    );
    expect(screen.getByRole('group', { name: 'Paid with' })).toHaveAccessibleDescription(
      'Choose how the family paid: cash, card or EFTPOS.',
    );
    expect(sales).toEqual([]);

    // Corrected, the messages go.
    await userEvent.type(first, 'Holly');
    await userEvent.type(screen.getByLabelText('Last name'), 'Berry');
    await userEvent.clear(screen.getByLabelText('E-mail for the receipt (optional)'));
    await userEvent.selectOptions(screen.getByLabelText('Quantity of Classic Print'), '1');
    await userEvent.click(screen.getByRole('radio', { name: 'Card' }));
    await sell();
    expect(await screen.findByRole('status')).toHaveTextContent('Sold: KR-7K3Q9');
    expect(screen.getByLabelText('First name')).not.toHaveAttribute('aria-invalid');
    expect(sales).toHaveLength(1);
  });

  it(
    "the child's age starts empty and must be chosen: Sell says so beside Age, focuses it and sends " + 'nothing',
    async () => {
      const { sales } = await openPage();
      const age = screen.getByRole('combobox', { name: 'Age' });
      // Beside its label, not inside it: inside, the label's text would be every age as well.
      expect(age.closest('label')).toBeNull();
      expect(age).toHaveValue('');
      expect(age).toBeRequired();
      expect(within(age).getByRole('option', { selected: true })).toHaveTextContent('Choose');
      await userEvent.type(screen.getByLabelText('Child 1 first name'), 'Mia');
      await sellToHollyBerry();

      expect(age).toHaveFocus();
      expect(age).toHaveAttribute('aria-invalid', 'true');
      expect(age).toHaveAccessibleDescription('Choose an age for child 1.');
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(sales).toEqual([]);

      await userEvent.selectOptions(age, '0');
      await sell();
      expect(await screen.findByRole('status')).toHaveTextContent('Sold: KR-7K3Q9');
      expect(sales[0]!.details.children).toEqual([{ firstName: 'Mia', age: 0 }]);
    },
  );

  it('asks about pets on a pet night only, and never sends pets for another session', async () => {
    const { sales, session } = await openPage();
    expect(screen.queryByLabelText('Pets')).not.toBeInTheDocument();
    await userEvent.selectOptions(session, slot(4).id);
    const pets = screen.getByLabelText('Pets');
    await userEvent.clear(pets);
    await userEvent.type(pets, '2');
    // The family moves to a Classic session: the pets question goes, and so do the pets.
    await userEvent.selectOptions(session, slot(3).id);
    expect(screen.queryByLabelText('Pets')).not.toBeInTheDocument();
    await sellToHollyBerry();
    await screen.findByRole('status');
    expect(sales).toEqual([
      expect.objectContaining({ slotId: slot(3).id, details: expect.objectContaining({ pets: 0, children: [] }) }),
    ]);
  });

  it('a sale for a session already on says the family is checked in', async () => {
    const { session } = await openPage({ attendance: 'checked_in' });
    await userEvent.selectOptions(session, slot(1).id);
    await sellToHollyBerry();
    expect(await screen.findByRole('status')).toHaveTextContent(
      '($29.00, paid in store by cash), checked in: their session is on now. Receipt sent to holly@example.com.',
    );
  });
});
