import type { StaffBooking } from '@kringle/contracts/staff';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { canUndoCheckIn } from '../parts/booking-card';
import { CheckInPage, checkInEntry } from './check-in-page';

const LOCATION = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Kringle Sydney',
  address: '1 Pitt Street',
  timezone: 'UTC',
  queueOpensAt: null,
};

/** A confirmed family at a session starting now, checked in at `checkedInAt` by `by`. */
function family(checkedInAt: Date, by = 'elf@kringle.test'): StaffBooking {
  const start = new Date();
  return {
    id: '00000000-0000-4000-8000-0000000000c1',
    reference: 'KR-7K3Q9',
    customer: { firstName: 'holly', lastName: 'berry', email: null },
    slotType: { name: 'Santa photos' },
    slot: { startAt: start.toISOString(), endAt: new Date(start.getTime() + 600_000).toISOString() },
    items: [],
    details: null,
    attendance: 'checked_in',
    checkedInAt: checkedInAt.toISOString(),
    actions: [{ at: checkedInAt.toISOString(), staffEmail: by, action: 'check_in' }],
  } as unknown as StaffBooking;
}

function fakeApi(answer: (body: Record<string, string>) => StaffBooking) {
  const sent: Record<string, string>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body)) as Record<string, string>;
      sent.push(body);
      return new Response(JSON.stringify(answer(body)), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return sent;
}

describe('check-in', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads a reference with or without its dash, in any case, and a scanned code typed whole', () => {
    expect(checkInEntry(' kr-7k3q9 ')).toEqual({ reference: 'KR-7K3Q9' });
    expect(checkInEntry('KR7K3Q9')).toEqual({ reference: 'KR-7K3Q9' });
    expect(checkInEntry('kr 7k3q9')).toEqual({ reference: 'KR-7K3Q9' });
    expect(checkInEntry('7k3q9')).toEqual({ reference: 'KR-7K3Q9' });
    expect(checkInEntry('KR-7K3Q9-AbCdEfGhJkMnPqRs')).toEqual({ code: 'KR-7K3Q9-AbCdEfGhJkMnPqRs' });
    expect(checkInEntry('KR-7K3')).toEqual({ reference: 'KR-7K3' });
  });

  it('after a typed check-in, empties the box and keeps the cursor there for the next family', async () => {
    const sent = fakeApi(() => family(new Date()));
    render(<CheckInPage location={LOCATION} />);
    const box = screen.getByLabelText('Booking reference');
    await userEvent.type(box, 'kr7k3q9{Enter}');
    expect(await screen.findByRole('heading', { name: 'Holly Berry' })).toBeInTheDocument();
    expect(sent).toEqual([{ locationId: LOCATION.id, reference: 'KR-7K3Q9' }]);
    expect(box).toHaveValue('');
    expect(box).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Undo check-in' })).toBeInTheDocument();
    expect(screen.queryByText(/Already checked in/)).not.toBeInTheDocument();
  });

  it('says a family was already checked in, by whom and when, and offers no Undo once its minute is over', async () => {
    fakeApi(() => family(new Date(Date.now() - 5 * 60_000), 'rudolph@kringle.test'));
    render(<CheckInPage location={LOCATION} />);
    await userEvent.type(screen.getByLabelText('Booking reference'), 'KR-7K3Q9{Enter}');
    expect(
      await screen.findByText(/^Already checked in at \d{1,2}:\d\d (am|pm) by rudolph@kringle\.test\.$/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Undo check-in' })).not.toBeInTheDocument();
  });

  it('offers Undo only within the minute the API allows', () => {
    const at = new Date('2026-12-01T10:00:00.000Z');
    expect(canUndoCheckIn(family(at), at.getTime() + 59_000)).toBe(true);
    expect(canUndoCheckIn(family(at), at.getTime() + 61_000)).toBe(false);
  });
});
