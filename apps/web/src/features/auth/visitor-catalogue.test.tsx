import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicCatalogue } from '@kringle/contracts/public-catalogue';
import { forgetVisitorCatalogue, VisitorCatalogue } from './visitor-catalogue';

const catalogue: PublicCatalogue = {
  locations: [
    {
      id: '6b7c8d9e-0f1a-4b2c-8d3e-4f5a6b7c8d91',
      name: 'Kringle Sydney, Pitt Street',
      suburb: 'Sydney',
      state: 'NSW',
      timezone: 'Australia/Sydney',
      seasonStart: '2026-12-01',
      seasonEnd: '2026-12-24',
      salesOpenAt: null,
      slotTypes: [
        { id: '6b7c8d9e-0f1a-4b2c-8d3e-4f5a6b7c8d92', name: 'Santa photos', durationMinutes: 10, fromPriceCents: 2995 },
        { id: '6b7c8d9e-0f1a-4b2c-8d3e-4f5a6b7c8d93', name: 'Pet night', durationMinutes: 15, fromPriceCents: 3495 },
      ],
    },
    {
      id: '6b7c8d9e-0f1a-4b2c-8d3e-4f5a6b7c8d94',
      name: 'Kringle Perth, Murray Street',
      suburb: 'Perth',
      state: 'WA',
      timezone: 'Australia/Perth',
      seasonStart: '2026-12-05',
      seasonEnd: '2027-01-02',
      salesOpenAt: '2099-12-04T01:00:00.000Z',
      slotTypes: [
        { id: '6b7c8d9e-0f1a-4b2c-8d3e-4f5a6b7c8d95', name: 'Santa photos', durationMinutes: 10, fromPriceCents: 3195 },
      ],
    },
    {
      id: '6b7c8d9e-0f1a-4b2c-8d3e-4f5a6b7c8d96',
      name: 'Closed for the year',
      suburb: 'X',
      state: 'QLD',
      timezone: 'Australia/Brisbane',
      seasonStart: '2026-11-01',
      seasonEnd: '2026-11-30',
      salesOpenAt: null,
      slotTypes: [],
    },
  ],
};

const answering = (status: number, body: unknown) =>
  vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

describe('VisitorCatalogue (issue 53 item 3)', () => {
  beforeEach(() => forgetVisitorCatalogue());

  it('lists each location with its dates, session types and from prices, without an app check or a token', async () => {
    const fetchFn = answering(200, catalogue);
    render(<VisitorCatalogue fetchFn={fetchFn} />);
    const section = await screen.findByRole('region', { name: 'Santa photos this season' });
    const [sydney, perth] = within(section)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement?.parentElement === section);
    expect(sydney).toHaveTextContent(/Kringle Sydney, Pitt Street\s*1\s*–\s*24 Dec/);
    expect(sydney).toHaveTextContent(/Santa photos · 10 min\s*from \$29\.95/);
    expect(sydney).toHaveTextContent(/Pet night · 15 min\s*from \$34\.95/);
    expect(perth).toHaveTextContent(/5 Dec 2026\s*–\s*2 Jan 2027/);
    expect(perth).toHaveTextContent(/Bookings open Fri, 4 Dec, 9:00 am AWST/);
    expect(section).not.toHaveTextContent('Closed for the year');
    expect(section).toHaveTextContent('Prices include GST.');
    const [url, init] = fetchFn.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/common/catalogue');
    expect(init.headers).toBeUndefined();
    expect(init.credentials).toBe('omit');
  });

  it('shows nothing when the read fails, and reads again next time', async () => {
    const failing = answering(500, { error: 'down', code: 'INTERNAL' });
    const { unmount } = render(<VisitorCatalogue fetchFn={failing} />);
    await vi.waitFor(() => expect(failing).toHaveBeenCalled());
    // The failed answer settles (and is forgotten) before the next visit.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('region')).toBeNull();
    unmount();
    const fetchFn = answering(200, catalogue);
    render(<VisitorCatalogue fetchFn={fetchFn} />);
    expect(await screen.findByRole('region', { name: 'Santa photos this season' })).toBeVisible();
  });
});
