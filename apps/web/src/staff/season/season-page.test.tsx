import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SeasonFile } from './season-api';
import { SeasonPage } from './season-page';

const FILE: SeasonFile = {
  slotTypes: [{ slug: 'standard', name: 'Santa photos', description: 'A classic visit.', durationMinutes: 10 }],
  locations: [
    {
      slug: 'sydney',
      name: 'Kringle Sydney',
      address: '188 Pitt Street',
      suburb: 'Sydney',
      state: 'NSW',
      timezone: 'Australia/Sydney',
      seasonStart: '2026-12-01',
      seasonEnd: '2026-12-24',
      sessions: [{ slotType: 'standard', days: ['mon', 'tue'], hours: '10:00-17:30' }],
      breaks: ['12:00-12:40'],
    },
  ],
  packages: [{ slug: 'classic', name: 'Classic Print', description: 'One print.', priceCents: 3995 }],
};

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** The season routes as the page meets them; each call recorded with its If-Match and body. */
function fakeApi(answers: { preview: unknown; put: () => Response }) {
  const calls: { call: string; ifMatch?: string; body?: SeasonFile }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = String(url).replace(/^.*\/api\/v1/, '');
      if (path === '/app-check/challenge') return json(404, { error: 'off', code: 'NOT_FOUND' });
      const headers = (init?.headers ?? {}) as Record<string, string>;
      calls.push({
        call: `${init?.method ?? 'GET'} ${path}`,
        ifMatch: headers['if-match'],
        body: init?.body ? (JSON.parse(String(init.body)) as SeasonFile) : undefined,
      });
      if (path === '/staff/season' && !init?.method) return json(200, FILE, { etag: '"4"' });
      if (path === '/staff/season/preview') return json(200, answers.preview);
      if (path === '/staff/season' && init?.method === 'PUT') return answers.put();
      return json(404, { error: 'no', code: 'NOT_FOUND' });
    }),
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('the season editor page', () => {
  it(
    'previews an hours change, saves it with the version it edited, and asks for a reload when another save came ' +
      'first',
    async () => {
      const calls = fakeApi({
        preview: { sessionsAdded: 21, sessionsRemoved: 0, sessionsChanged: 0, conflicts: [] },
        put: () =>
          json(412, {
            error: 'Someone saved the season after you opened it. Reload it and make your change again.',
            code: 'SEASON_VERSION_STALE',
          }),
      });
      render(<SeasonPage timezone="Australia/Sydney" />);
      expect(await screen.findByText('Version 4 is live. Changes apply to sessions from now on.')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

      const closes = screen.getByLabelText('Closes (hours 1)');
      await userEvent.clear(closes);
      await userEvent.type(closes, '18:00');
      await userEvent.click(screen.getByRole('button', { name: 'Preview changes' }));
      expect(await screen.findByText('This change adds 21 sessions, removes 0 and changes 0.')).toBeInTheDocument();
      expect(calls.find((c) => c.call === 'POST /staff/season/preview')?.body?.locations[0]?.sessions[0]?.hours).toBe(
        '10:00-18:00',
      );

      await userEvent.click(screen.getByRole('button', { name: 'Save' }));
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Someone saved the season after you opened it.');
      expect(calls.find((c) => c.call === 'PUT /staff/season')).toMatchObject({ ifMatch: '"4"' });
      await userEvent.click(within(alert).getByRole('button', { name: /Reload the season/ }));
      await vi.waitFor(() => expect(calls.filter((c) => c.call === 'GET /staff/season')).toHaveLength(2));
      await vi.waitFor(() => expect(screen.getByLabelText('Closes (hours 1)')).toHaveValue('17:30'));
    },
  );

  it('lists the booked sessions a change would touch and does not offer to save it; prices go in cents', async () => {
    const calls = fakeApi({
      preview: {
        sessionsAdded: 0,
        sessionsRemoved: 6,
        sessionsChanged: 0,
        conflicts: [
          {
            slotId: 's1',
            bookingId: 'b1',
            reference: 'KR-7K3Q9',
            location: 'sydney',
            startAt: '2026-12-01T06:00:00.000Z',
            change: 'removed',
          },
        ],
      },
      put: () => json(500, {}),
    });
    render(<SeasonPage timezone="Australia/Sydney" />);
    const price = within(await screen.findByRole('group', { name: 'Package classic' })).getByLabelText('Price ($)');
    await userEvent.clear(price);
    await userEvent.type(price, '42.5');
    expect(price).toHaveValue(42.5);
    await userEvent.click(screen.getByRole('button', { name: 'Preview changes' }));
    expect(calls.find((c) => c.call === 'POST /staff/season/preview')?.body?.packages[0]?.priceCents).toBe(4250);
    expect(
      await screen.findByText(/Families are booked in 1 of those sessions, so this cannot be saved/),
    ).toBeInTheDocument();
    expect(screen.getByText(/booking KR-7K3Q9 \(removed\)/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('adds a package with its own slug and a location copied from another; saved items keep their slugs', async () => {
    const calls = fakeApi({
      preview: { sessionsAdded: 0, sessionsRemoved: 0, sessionsChanged: 0, conflicts: [] },
      put: () => json(500, {}),
    });
    render(<SeasonPage timezone="Australia/Sydney" />);
    expect(within(await screen.findByRole('group', { name: 'Package classic' })).queryByLabelText(/Slug/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Add a package' }));
    const added = screen.getByRole('group', { name: 'Package new-package' });
    const slug = within(added).getByLabelText(/Slug/);
    await userEvent.clear(slug);
    await userEvent.type(slug, 'snow-globe');
    await userEvent.tab();
    const globe = screen.getByRole('group', { name: 'Package snow-globe' });
    await userEvent.clear(within(globe).getByLabelText('Name'));
    await userEvent.type(within(globe).getByLabelText('Name'), 'Snow globe');
    await userEvent.click(screen.getByRole('button', { name: 'Add a location (a copy of this one)' }));
    expect(screen.getByLabelText('Location to edit')).toHaveDisplayValue('Kringle Sydney (copy)');
    await userEvent.click(screen.getByRole('button', { name: 'Preview changes' }));
    await screen.findByText('This change adds 0 sessions, removes 0 and changes 0.');
    const body = calls.find((c) => c.call === 'POST /staff/season/preview')!.body!;
    expect(body.packages[1]).toEqual({
      slug: 'snow-globe',
      name: 'Snow globe',
      description: 'What it includes.',
      priceCents: 1000,
    });
    expect(body.locations.map((l) => l.slug)).toEqual(['sydney', 'sydney-copy']);
  });
});
