import { localDateOf } from '@kringle/contracts/dates';
import type { RunSheet } from '@kringle/contracts/staff';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RunSheetPage } from './run-sheet-page';

const LOCATION = { id: '00000000-0000-4000-8000-000000000001', name: 'Kringle Sydney', address: '1 Pitt Street', timezone: 'UTC' };
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

describe('run sheet', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('"Jump to now" takes the view to the first session not yet over', async () => {
    // A moment inside today in UTC, so the three sessions stay on today's sheet.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(`${localDateOf(new Date(), 'UTC')}T12:00:00.000Z`) });
    const items = [slot(1, -2 * HOUR), slot(2, -5 * 60_000), slot(3, HOUR)].map((s) => ({ slot: s, booking: null }));
    const sheet = { location: LOCATION, date: localDateOf(new Date(), 'UTC'), timezone: 'UTC', counts: { booked: 0, checkedIn: 0, noShow: 0, cancelled: 0, free: 2, people: 0 }, items } as unknown as RunSheet;
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(sheet), { status: 200, headers: { 'content-type': 'application/json' } })));
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
});
