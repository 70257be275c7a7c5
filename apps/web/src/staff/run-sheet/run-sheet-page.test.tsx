import { localDateOf } from '@kringle/contracts/dates';
import type { RunSheet } from '@kringle/contracts/staff';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RunSheetPage } from './run-sheet-page';

const LOCATION = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Kringle Sydney',
  address: '1 Pitt Street',
  timezone: 'UTC',
  queueOpensAt: null,
};
const HOUR = 3_600_000;
/** Three free sessions today: one over, one on now, one later. */
const slot = (n: number, startsIn: number) => ({
  id: `00000000-0000-4000-8000-00000000010${n}`,
  kind: 'session' as const,
  startAt: new Date(Date.now() + startsIn).toISOString(),
  endAt: new Date(Date.now() + startsIn + 600_000).toISOString(),
  slotType: { id: '00000000-0000-4000-8000-0000000000b1', slug: 'classic', name: 'Classic' },
  state: 'free' as const,
});

const none = { bookings: 0, amountCents: 0 };
const COUNTS = {
  booked: 1,
  checkedIn: 0,
  noShow: 0,
  cancelled: 0,
  free: 2,
  people: 3,
  paidWith: { cash: { bookings: 2, amountCents: 7990 }, card: none, eftpos: none },
};
const family = (reference: string, name: string) => ({
  id: `00000000-0000-4000-8000-0000000002${reference.slice(-2)}`,
  reference,
  source: 'online',
  attendance: 'confirmed',
  customer: { firstName: name, lastName: 'Berry', email: null },
  details: null,
  items: [],
  actions: [],
  paidWith: null,
  checkedInAt: null,
});
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

describe('run sheet', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('"Jump to now" takes the view to the first session not yet over', async () => {
    // A moment inside today in UTC, so the three sessions stay on today's sheet.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(`${localDateOf(new Date(), 'UTC')}T12:00:00.000Z`) });
    const items = [slot(1, -2 * HOUR), slot(2, -5 * 60_000), slot(3, HOUR)].map((s) => ({ slot: s, booking: null }));
    const sheet = {
      location: LOCATION,
      date: localDateOf(new Date(), 'UTC'),
      timezone: 'UTC',
      counts: COUNTS,
      items,
    } as unknown as RunSheet;
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify(sheet), { status: 200, headers: { 'content-type': 'application/json' } }),
      ),
    );
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;

    render(<RunSheetPage location={LOCATION} onSellWalkIn={() => {}} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Jump to now' }));
    const rows = screen.getAllByRole('listitem').filter((li) => li.closest('ol'));
    expect(rows[1]).toHaveFocus();
    expect(rows[1]).toHaveTextContent('Classic');
    expect(scrolled).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
  });

  it(
    'on a phone, today opens on "Now and next": the session on now, then the next family, quiet sessions folded ' +
      'into one line each, the earlier ones too; the takings by way of paying',
    async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: new Date(`${localDateOf(new Date(), 'UTC')}T12:00:00.000Z`) });
      vi.stubGlobal('matchMedia', (query: string) => ({
        matches: query === '(max-width: 800px)',
        media: query,
        addEventListener() {},
        removeEventListener() {},
      }));
      const MIN = 60_000;
      const items = [
        { slot: slot(1, -30 * MIN), booking: family('KR-AAA01', 'ada') },
        { slot: slot(2, -5 * MIN), booking: family('KR-AAA02', 'bea') },
        { slot: slot(3, 10 * MIN), booking: null },
        { slot: { ...slot(4, 20 * MIN), state: 'held' }, booking: null },
        { slot: slot(5, 30 * MIN), booking: family('KR-AAA05', 'cal') },
        { slot: slot(6, 40 * MIN), booking: null },
      ];
      vi.stubGlobal(
        'fetch',
        vi.fn(async () =>
          json({ location: LOCATION, date: localDateOf(new Date(), 'UTC'), timezone: 'UTC', counts: COUNTS, items }),
        ),
      );
      render(<RunSheetPage location={LOCATION} onSellWalkIn={() => {}} />);

      expect(await screen.findByRole('button', { name: 'Now and next' })).toHaveAttribute('aria-pressed', 'true');
      const now = await screen.findByRole('region', { name: 'Now' });
      expect(now).toHaveTextContent('Bea Berry');
      expect(now).not.toHaveTextContent('Ada Berry');
      const next = screen.getByRole('region', { name: 'Next' });
      expect(next).toHaveTextContent('Cal Berry');
      // Two quiet runs: the free and the held session before Cal, the free one after; folded.
      const folds = within(next).getAllByRole('button', { name: /^Show / });
      expect(folds.map((b) => b.getAttribute('aria-label'))).toEqual([
        'Show 12:10 pm – 12:30 pm: 2 sessions: 1 free, 1 being booked online',
        'Show 12:40 pm – 12:50 pm: 1 free session',
      ]);
      expect(within(next).queryByRole('button', { name: /Sell walk-in/ })).toBeNull();
      await userEvent.click(folds[1]!);
      expect(within(next).getByRole('button', { name: 'Sell walk-in, 12:40 pm' })).toBeVisible();
      expect(folds[1]).toHaveAttribute('aria-expanded', 'true');
      // What is over is one line too.
      const earlier = screen.getByRole('region', { name: 'Earlier today' });
      expect(earlier).not.toHaveTextContent('Ada Berry');
      await userEvent.click(within(earlier).getByRole('button', { name: /^Show / }));
      expect(earlier).toHaveTextContent('Ada Berry');
      expect(screen.getByRole('list', { name: 'Walk-in takings' })).toHaveTextContent(
        '$79.90Cash: 2 walk-ins$0.00Card: 0 walk-ins$0.00EFTPOS: 0 walk-ins',
      );
      // The whole day is a tap away.
      await userEvent.click(screen.getByRole('button', { name: 'Whole day' }));
      expect(screen.queryByRole('region', { name: 'Now' })).toBeNull();
      expect(screen.getByRole('button', { name: 'Sell walk-in, 12:10 pm' })).toBeVisible();
      vi.useRealTimers();
    },
  );

  it(
    '"Santa is running late": the minutes and a note, a named second tap, then how many families were ' + 'told',
    async () => {
      const posts: { url: string; body: unknown }[] = [];
      const sheet = {
        location: LOCATION,
        date: localDateOf(new Date(), 'UTC'),
        timezone: 'UTC',
        counts: COUNTS,
        items: [],
      };
      vi.stubGlobal(
        'fetch',
        vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
          if (init?.method !== 'POST') return json(sheet);
          posts.push({ url: String(input), body: JSON.parse(String(init.body)) });
          return new Response(JSON.stringify({ families: 3 }), {
            status: 202,
            headers: { 'content-type': 'application/json' },
          });
        }),
      );
      const { unmount } = render(<RunSheetPage location={LOCATION} onSellWalkIn={() => {}} />);
      await screen.findByText('No sessions on this day.');
      // Support reads the sheet only.
      expect(screen.queryByRole('button', { name: 'Santa is running late' })).toBeNull();
      unmount();

      render(<RunSheetPage location={LOCATION} onSellWalkIn={() => {}} mayTellDelay />);
      await userEvent.click(await screen.findByRole('button', { name: 'Santa is running late' }));
      const form = screen.getByRole('form', { name: 'Santa is running late' });
      await userEvent.selectOptions(within(form).getByLabelText('Running late by'), '20');
      await userEvent.type(within(form).getByLabelText(/Note for families/), 'Sorry for the wait');
      await userEvent.click(within(form).getByRole('button', { name: 'Tell families' }));
      expect(posts).toEqual([]);
      expect(within(form).getByRole('group')).toHaveTextContent('running about 20 minutes late?');
      await userEvent.click(within(form).getByRole('button', { name: 'Yes, tell them' }));
      expect(await within(form).findByRole('status')).toHaveTextContent('Told 3 families by text and e-mail.');
      expect(posts).toEqual([
        {
          url: expect.stringContaining(`/api/v1/staff/locations/${LOCATION.id}/delay`),
          body: { minutes: 20, message: 'Sorry for the wait' },
        },
      ]);
    },
  );
});
