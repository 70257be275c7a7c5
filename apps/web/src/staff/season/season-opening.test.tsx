import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SeasonChange } from '@kringle/contracts/season-editor';
import type { SeasonFile } from './season-api';
import { describeChange } from './season-changes';
import { SeasonPage } from './season-page';

const FILE: SeasonFile = {
  slotTypes: [{ slug: 'standard', name: 'Santa photos', description: 'A classic visit.', durationMinutes: 10 }],
  locations: [
    {
      slug: 'perth',
      name: 'Kringle Perth',
      address: '1 Murray Street',
      suburb: 'Perth',
      state: 'WA',
      timezone: 'Australia/Perth',
      seasonStart: '2026-12-01',
      seasonEnd: '2026-12-24',
      sessions: [{ slotType: 'standard', days: ['mon', 'tue'], hours: '10:00-17:30' }],
    },
  ],
  packages: [{ slug: 'classic', name: 'Classic Print', description: 'One print.', priceCents: 3995 }],
};
const change = (over: Partial<SeasonChange>): SeasonChange => ({
  item: 'package',
  slug: 'classic',
  name: 'Classic Print',
  change: 'changed',
  field: 'priceCents',
  before: 3995,
  after: 4295,
  ...over,
});

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

afterEach(() => vi.unstubAllGlobals());

describe("the season preview's changes in words (issue 53 item 6)", () => {
  it('names prices in dollars, the opening in the location’s zone, the waiting room and retired products', () => {
    expect(describeChange(change({}), FILE)).toBe('Package Classic Print: price $39.95 → $42.95');
    expect(
      describeChange(
        change({
          item: 'location',
          slug: 'perth',
          name: 'Kringle Perth',
          field: 'salesOpenAt',
          before: null,
          after: '2026-12-05T09:00',
        }),
        FILE,
      ),
    ).toBe('Location Kringle Perth: bookings open as soon as saved → Sat 5 Dec, 9:00 am AWST');
    expect(
      describeChange(
        change({ item: 'location', slug: 'perth', name: 'Kringle Perth', field: 'queue', before: 0, after: 30 }),
        FILE,
      ),
    ).toBe('Location Kringle Perth: waiting room none → opens 30 minutes before');
    expect(
      describeChange(
        change({
          item: 'addOn',
          slug: 'elf',
          name: 'Elf hat',
          change: 'removed',
          field: null,
          before: null,
          after: null,
        }),
        FILE,
      ),
    ).toBe('Add-on Elf hat: retired (no longer sold)');
    expect(
      describeChange(
        change({
          item: 'season',
          slug: null,
          name: 'Extra photos',
          field: 'extraPhotoPriceCents',
          before: 900,
          after: 1000,
        }),
        FILE,
      ),
    ).toBe('Extra photos: price of each extra photo $9.00 → $10.00');
  });
});

describe('the season editor: opening time and waiting room (issue 53 item 7)', () => {
  it(
    "sets an opening time in the location's own zone and a waiting room, previews the changes and sends them in the " +
      'file',
    async () => {
      const bodies: SeasonFile[] = [];
      vi.stubGlobal(
        'fetch',
        vi.fn(async (url: string, init?: RequestInit) => {
          const path = String(url).replace(/^.*\/api\/v1/, '');
          if (path === '/staff/season' && !init?.method) return json(200, FILE, { etag: '"4"' });
          if (path === '/staff/season/preview') {
            bodies.push(JSON.parse(String(init!.body)) as SeasonFile);
            return json(200, {
              sessionsAdded: 0,
              sessionsRemoved: 0,
              sessionsChanged: 0,
              conflicts: [],
              changes: [
                change({
                  item: 'location',
                  slug: 'perth',
                  name: 'Kringle Perth',
                  field: 'salesOpenAt',
                  before: null,
                  after: '2026-12-05T09:30',
                }),
                change({
                  item: 'location',
                  slug: 'perth',
                  name: 'Kringle Perth',
                  field: 'queue',
                  before: 0,
                  after: 45,
                }),
              ],
            });
          }
          return json(404, { error: 'no', code: 'NOT_FOUND' });
        }),
      );
      // The manager's browser is in Sydney; the location is in Perth: the form speaks Perth's time.
      render(<SeasonPage timezone="Australia/Sydney" />);
      const opening = await screen.findByRole('group', { name: 'Bookings open' });
      expect(within(opening).getByLabelText('As soon as the season is saved')).toBeChecked();
      await userEvent.click(within(opening).getByLabelText('At a set time (a fair start)'));
      const at = within(opening).getByLabelText(/Opening time \(Perth time, AWST\)/);
      fireEvent.change(at, { target: { value: '2026-12-05T09:30' } });
      expect(within(opening).getByText(/Sat 5 Dec, 9:30 am AWST/)).toBeInTheDocument();
      const queue = within(opening).getByLabelText('Waiting room opens (minutes before, 0 for none)');
      expect(queue).toHaveValue(30);
      await userEvent.clear(queue);
      await userEvent.type(queue, '45');
      await userEvent.click(screen.getByRole('button', { name: 'Preview changes' }));
      const preview = await screen.findByTestId('season-preview');
      expect(preview).toHaveTextContent('It also changes 2 things:');
      expect(preview).toHaveTextContent(
        'Location Kringle Perth: bookings open as soon as saved → Sat 5 Dec, 9:30 am AWST',
      );
      expect(preview).toHaveTextContent('Location Kringle Perth: waiting room none → opens 45 minutes before');
      expect(bodies.at(-1)!.locations[0]).toMatchObject({
        salesOpenAt: '2026-12-05T09:30',
        queue: { opensMinutesBefore: 45 },
      });

      // Back to "as soon as saved": the file carries neither.
      await userEvent.click(within(opening).getByLabelText('As soon as the season is saved'));
      await userEvent.click(screen.getByRole('button', { name: 'Preview changes' }));
      await vi.waitFor(() => expect(bodies).toHaveLength(2));
      expect(bodies[1]!.locations[0]).not.toHaveProperty('salesOpenAt');
      expect(bodies[1]!.locations[0]).not.toHaveProperty('queue');
    },
  );
});
