import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Slot } from '@kringle/contracts/catalogue';
import { dayZone, groupByPartOfDay, SessionList, skipPassed } from './session-list';
import { nextFreeSessions } from '../steps/taken-notice';

const TZ = 'Australia/Perth'; // UTC+8 all year (AWST)
let n = 0;
/** A slot at a Perth wall-clock time on Mon 7 Dec 2026. */
function slot(time: string, status: Slot['status'] = 'available', kind: Slot['kind'] = 'session'): Slot {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const start = Date.UTC(2026, 11, 7, h - 8, m);
  return {
    id: `s${++n}`,
    slotTypeId: 't',
    kind,
    startAt: new Date(start).toISOString(),
    endAt: new Date(start + 10 * 60_000).toISOString(),
    status,
  };
}

describe('session list helpers', () => {
  const day = [
    slot('10:00', 'unavailable'),
    slot('10:10', 'unavailable'),
    slot('10:20', 'booked'),
    slot('10:30'),
    slot('12:00', 'unavailable', 'break'),
    slot('12:40', 'reserved'),
    slot('12:50'),
    slot('17:10'),
  ];

  it('skips the opening run of sessions that can no longer be booked', () => {
    const { passed, rest } = skipPassed(day);
    expect(passed).toBe(2);
    expect(rest[0]!.status).toBe('booked');
    expect(skipPassed([slot('10:00', 'unavailable'), slot('12:00', 'unavailable', 'break')])).toEqual({
      passed: 1,
      rest: [],
    });
  });

  it('groups by part of the day in the location’s local time', () => {
    expect(groupByPartOfDay(day, TZ).map((g) => [g.label, g.slots.length])).toEqual([
      ['Morning', 4],
      ['Afternoon', 3],
      ['Evening', 1],
    ]);
  });

  it('after a 409, suggests the next free sessions of that day, else the earlier free ones', () => {
    expect(nextFreeSessions(day, day[2]!).map((s) => s.id)).toEqual([day[3]!.id, day[6]!.id, day[7]!.id]);
    expect(nextFreeSessions(day, day[7]!).map((s) => s.id)).toEqual([day[3]!.id, day[6]!.id]);
  });
});

describe('SessionList', () => {
  it(
    'shows times without repeating the zone (the heading says it once), breaks as Santa’s break, taken sessions as ' +
      'taken and disabled, and the held one as yours',
    () => {
      const slots = [
        slot('10:20', 'booked'),
        slot('10:30'),
        slot('10:40', 'reserved'),
        slot('12:00', 'unavailable', 'break'),
        slot('12:40', 'reserved'),
      ];
      const onPick = vi.fn();
      render(
        <SessionList slots={slots} timezone={TZ} heldSlotId={slots[4]!.id} pendingSlotId={null} onPick={onPick} />,
      );
      expect(screen.getByRole('button', { name: '10:30 am' })).toBeEnabled();
      expect(screen.getByRole('button', { name: '10:20 am, taken' })).toBeDisabled();
      expect(screen.getByRole('button', { name: '10:40 am, taken' })).toBeDisabled();
      expect(screen.getByRole('button', { name: '12:40 pm, your session' })).toBeDisabled();
      expect(screen.getByText("Santa's break, 12:00 pm to 12:10 pm")).toBeInTheDocument();
      expect(screen.queryByText(/AWST/)).toBeNull();
      screen.getByRole('button', { name: '10:30 am' }).click();
      expect(onPick).toHaveBeenCalledWith(slots[1]);
    },
  );

  it('says the zone on every time on a day the clocks change (Sydney, 4 April 2027)', () => {
    const at = (iso: string): Slot => ({
      id: iso,
      slotTypeId: 't',
      kind: 'session',
      startAt: iso,
      endAt: new Date(Date.parse(iso) + 600_000).toISOString(),
      status: 'available',
    });
    const slots = [at('2027-04-03T14:30:00Z'), at('2027-04-03T17:00:00Z')]; // 1:30 am AEDT, then 3:00 am AEST
    expect(dayZone(slots, 'Australia/Sydney')).toBeNull();
    expect(dayZone(slots.slice(1), 'Australia/Sydney')).toBe('AEST');
    render(
      <SessionList slots={slots} timezone="Australia/Sydney" heldSlotId={null} pendingSlotId={null} onPick={vi.fn()} />,
    );
    expect(screen.getByRole('button', { name: '1:30 am AEDT' })).toBeEnabled();
    expect(screen.getByRole('button', { name: '3:00 am AEST' })).toBeEnabled();
  });
});

describe('SessionList before the bookings open', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 11, 7, 0, 0) })); // 8:00 am in Perth
  afterEach(() => vi.useRealTimers());

  it(
    'lists sessions not yet on sale as "Opens soon", not bookable and not crossed out (the key says crossed out is ' +
      'closed)',
    () => {
      const slots = [slot('10:30', 'unavailable'), slot('10:40', 'booked')];
      render(
        <SessionList slots={slots} timezone={TZ} heldSlotId={null} pendingSlotId={null} onPick={vi.fn()} notOpenYet />,
      );
      const soon = screen.getByRole('button', { name: '10:30 am, opens soon' });
      expect(soon).toBeDisabled();
      expect(soon).toHaveTextContent('Opens soon');
      expect(soon.querySelector('.line-through')).toBeNull();
      // One already booked (the API says booked before the opening too) still reads taken, crossed out.
      const taken = screen.getByRole('button', { name: '10:40 am, taken' });
      expect(taken).toBeDisabled();
      expect(taken.querySelector('.line-through')).not.toBeNull();
    },
  );
});

describe('SessionList when rescheduling', () => {
  it('marks the booking’s current session and does not offer it', () => {
    const mine = slot('10:30', 'booked');
    const other = slot('10:40');
    render(
      <SessionList
        slots={[mine, other]}
        timezone={TZ}
        heldSlotId={null}
        currentSlotId={mine.id}
        pendingSlotId={null}
        onPick={vi.fn()}
      />,
    );
    const current = screen.getByRole('button', { name: /^10:30 am.*, your current time$/ });
    expect(current).toBeDisabled();
    expect(current).toHaveAttribute('data-status', 'current');
    expect(screen.getByRole('button', { name: /^10:40 am/ })).toBeEnabled();
  });

  it('while a tap waits for its answer, that time says "Holding…" and the other times wait (issue 37 item 5)', () => {
    const tapped = slot('10:30');
    const other = slot('10:40');
    render(
      <SessionList
        slots={[tapped, other]}
        timezone={TZ}
        heldSlotId={null}
        pendingSlotId={tapped.id}
        onPick={vi.fn()}
      />,
    );
    const holding = screen.getByRole('button', { name: /^10:30 am.*, holding…$/ });
    expect(holding).toBeDisabled();
    expect(holding).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('button', { name: /^10:40 am/ })).toBeDisabled();
  });
});
