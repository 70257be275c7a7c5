import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { calendarWeeks, DatePicker, dayLabel, nextFreeDay, type PickerDay } from './date-picker';

// Sat 19 Dec to Sun 27 Dec 2026; Christmas Day closed, Wednesday 23rd sold out.
const DAYS: PickerDay[] = [
  { date: '2026-12-19', available: 12, sessions: 39 },
  { date: '2026-12-20', available: 1, sessions: 39 },
  { date: '2026-12-21', available: 30, sessions: 39 },
  { date: '2026-12-22', available: 30, sessions: 39 },
  { date: '2026-12-23', available: 0, sessions: 39 },
  { date: '2026-12-24', available: 8, sessions: 39 },
  { date: '2026-12-25', available: 0, sessions: 0 },
  { date: '2026-12-26', available: 20, sessions: 39 },
  { date: '2026-12-27', available: 20, sessions: 39 },
];

function Harness({ initial = null as string | null }) {
  const [selected, setSelected] = useState<string | null>(initial);
  return (
    <>
      <DatePicker days={DAYS} selected={selected} onSelect={setSelected} />
      <output>{selected ?? 'none'}</output>
    </>
  );
}

const day = (name: RegExp) => screen.getByRole('button', { name });

describe('calendarWeeks', () => {
  it('lays the days out in Monday-first weeks, padded before the first day', () => {
    const weeks = calendarWeeks(DAYS).map((week) => week.map((d) => d?.date.slice(8) ?? null));
    expect(weeks).toEqual([
      [null, null, null, null, null, '19', '20'],
      ['21', '22', '23', '24', '25', '26', '27'],
    ]);
  });

  it('reads each day out with what is left: closed, fully booked, few left', () => {
    expect(dayLabel({ date: '2026-12-25', available: 0, sessions: 0 })).toBe('Friday 25 December, closed');
    expect(dayLabel({ date: '2026-12-23', available: 0, sessions: 39 })).toBe('Wednesday 23 December, fully booked');
    expect(dayLabel({ date: '2026-12-23', available: 0, sessions: 39 }, true)).toBe(
      'Wednesday 23 December, not on sale yet',
    );
    expect(dayLabel({ date: '2026-12-20', available: 1, sessions: 39 })).toBe(
      'Sunday 20 December, few left: 1 session left',
    );
    expect(dayLabel({ date: '2026-12-24', available: 8, sessions: 39 })).toBe('Thursday 24 December, 8 sessions left');
  });

  it('finds the next day with a free session, else the first one before', () => {
    expect(nextFreeDay(DAYS, '2026-12-23')).toBe('2026-12-24');
    expect(nextFreeDay(DAYS, '2026-12-27')).toBe('2026-12-19');
    expect(
      nextFreeDay(
        DAYS.map((d) => ({ ...d, available: 0 })),
        '2026-12-23',
      ),
    ).toBeNull();
  });
});

describe('DatePicker', () => {
  it(
    'disables closed days: marked, and a click chooses nothing; a fully booked day says Full and can be looked ' + 'at',
    async () => {
      render(<Harness />);
      const christmas = day(/^Friday 25 December/);
      expect(christmas).toHaveAttribute('aria-disabled', 'true');
      expect(christmas).toHaveAccessibleName('Friday 25 December, closed');
      const full = day(/^Wednesday 23 December/);
      expect(full).not.toHaveAttribute('aria-disabled');
      expect(full).toHaveTextContent('Full');
      expect(day(/^Sunday 20 December/)).toHaveTextContent('Few left');
      expect(day(/^Thursday 24 December/)).not.toHaveAttribute('aria-disabled');
      expect(day(/^Thursday 24 December/)).not.toHaveTextContent(/Full|Few/);
      await userEvent.click(christmas);
      expect(screen.getByText('none')).toBeInTheDocument();
      await userEvent.click(day(/^Thursday 24 December/));
      expect(screen.getByText('2026-12-24')).toBeInTheDocument();
      expect(day(/^Thursday 24 December/)).toHaveAttribute('aria-pressed', 'true');
    },
  );

  it('is one tab stop; arrows move by day and week, Enter chooses, disabled days cannot be chosen by key', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.tab();
    // With nothing chosen, the first day with sessions takes the focus.
    expect(day(/^Saturday 19 December/)).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(day(/^Sunday 20 December/)).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(day(/^Sunday 27 December/)).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowLeft}{ArrowLeft}');
    // Clamped to the first day of the range.
    expect(day(/^Saturday 19 December/)).toHaveFocus();
    await user.keyboard('{ArrowDown}{Home}');
    expect(day(/^Monday 21 December/)).toHaveFocus();
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}');
    expect(day(/^Friday 25 December/)).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByText('none')).toBeInTheDocument();
    await user.keyboard('{End}{ArrowLeft}{Enter}');
    expect(screen.getByText('2026-12-26')).toBeInTheDocument();
    // Only one day is in the tab order.
    expect(screen.getAllByRole('button').filter((b) => b.tabIndex === 0)).toHaveLength(1);
  });
});
