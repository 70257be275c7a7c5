import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BarChart, niceCeil } from './bar-chart';

describe('the reports bar chart', () => {
  it('tops its axis with a true round figure', () => {
    expect([0, 1, 7, 10, 11, 2995, 4700, 12_001].map(niceCeil)).toEqual([1, 1, 10, 10, 20, 5000, 5000, 20_000]);
  });

  it('is an image named by its title and summary, a bar per day, stacked segments, a legend for several', () => {
    const bars = ['1 Dec', '2 Dec', '3 Dec'].map((label, i) => ({
      label,
      segments: [
        { name: 'Booked', color: 'green', value: i * 10 },
        { name: 'Free', color: 'beige', value: 30 - i * 10 },
      ],
    }));
    const { container } = render(
      <BarChart title="Sessions by day" summary="Thirty sessions a day" bars={bars} format={String} />,
    );
    const img = screen.getByRole('img', { name: 'Sessions by day Thirty sessions a day' });
    expect(img.querySelectorAll('g title')[1]!.textContent).toBe('2 Dec: Booked 10, Free 20');
    expect(container.querySelectorAll('rect[fill="green"]')).toHaveLength(3);
    expect(screen.getByRole('list', { name: 'Legend' }).textContent).toBe('BookedFree');
    expect(img.textContent).toContain('50');
  });
});
