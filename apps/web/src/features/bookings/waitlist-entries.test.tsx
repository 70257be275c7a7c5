import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memorySink, setAnalyticsSink } from '../../lib/analytics';
import { renderWithApi } from './bookings-test-store';
import { WaitlistEntries } from './waitlist-entries';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

const events: string[] = [];
beforeEach(() => {
  events.length = 0;
  setAnalyticsSink({ send: (event) => events.push(event) });
});
afterEach(() => setAnalyticsSink(memorySink));

const LOCATION = '0b6f1f4e-7c3a-4f6e-9a52-1f0e6f7d8a01';
const TYPE = '1c7e2f5a-8d4b-4a7f-8b63-2a1f7e8d9b02';
const place = {
  id: LOCATION,
  name: 'Kringle Sydney, Pitt Street',
  timezone: 'Australia/Sydney',
  slotTypes: [{ id: TYPE, name: 'Sensory-friendly Santa' }],
};
const waiting = {
  id: '2d8f3a6b-9e5c-4b8a-9c74-3b2a8f9eac03',
  locationId: LOCATION,
  slotTypeId: TYPE,
  date: '2026-12-16',
  status: 'waiting',
  position: 2,
  createdAt: '2026-11-24T00:00:00.000Z',
  offer: null,
};
const offered = {
  ...waiting,
  id: '3e9a4b7c-af6d-4c9b-8d85-4c3b9a0fbd04',
  date: '2026-12-20',
  status: 'offered',
  position: 1,
  offer: {
    reservationId: '4fab5c8d-b07e-4dac-9e96-5d4cab10ce05',
    slotId: '5abc6d9e-c18f-4ebd-8fa7-6e5dbc21df06',
    startAt: '2026-12-19T22:30:00.000Z',
    expiresAt: new Date(Date.now() + 125_000).toISOString(),
  },
};

describe('My Bookings: the waitlist', () => {
  it('shows each place in line, an open offer with its countdown and link, and leaves a line', async () => {
    let left = false;
    const { calls } = renderWithApi(<WaitlistEntries />, (call) => {
      if (call.path === '/common/locations') return { items: [place] };
      if (call.method === 'GET' && call.path === '/waitlist') return { items: left ? [offered] : [waiting, offered] };
      if (call.method === 'DELETE' && call.path === `/waitlist/${waiting.id}`) {
        left = true;
        return new Response(null, { status: 204 });
      }
      throw new Error(`unexpected call ${call.method} ${call.path}`);
    });
    expect(await screen.findByText('Wednesday 16 December')).toBeInTheDocument();
    expect(screen.getByText('2nd')).toBeInTheDocument();
    expect(screen.getAllByText('Sensory-friendly Santa at Kringle Sydney, Pitt Street')).toHaveLength(2);
    expect(screen.getByText(/held for you: 9:30 am AEDT\./)).toBeInTheDocument();
    expect(screen.getByRole('timer')).toHaveTextContent(/^2:0\d$/);
    expect(screen.getByRole('link', { name: 'Continue booking' })).toHaveAttribute(
      'href',
      `/create-booking?offer=${offered.offer.reservationId}`,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Leave the waitlist for Wednesday 16 December' }));
    // Asked first, the safe answer focused: keeping the place changes nothing.
    const ask = screen.getByRole('group', { name: 'Leave the waitlist for Wednesday 16 December?' });
    expect(ask).toHaveTextContent('You give up your place (2nd in line) and cannot get it back.');
    expect(within(ask).getByRole('button', { name: 'Keep my place' })).toHaveFocus();
    await userEvent.click(within(ask).getByRole('button', { name: 'Keep my place' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Leave the waitlist for Wednesday 16 December' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes, leave' }));
    await waitFor(() => expect(screen.queryByText('Wednesday 16 December')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'DELETE' && c.path === `/waitlist/${waiting.id}`)).toBe(true);
    expect(events).toEqual(['waitlist_leave']);
    expect(toast.success).toHaveBeenCalledWith('You have left the waitlist for Wednesday 16 December.');
  });
});
