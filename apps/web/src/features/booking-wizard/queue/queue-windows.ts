import type { QueueWants } from '@kringle/contracts/queue';

/** The waiting room's times of day (local to the location), as `wants.from` and `wants.to`. */
export const WINDOWS = {
  any: { label: 'Any time', range: {} },
  morning: { label: 'Morning (before 12 pm)', range: { to: '12:00' } },
  afternoon: { label: 'Afternoon (12 pm to 5 pm)', range: { from: '12:00', to: '17:00' } },
  evening: { label: 'Evening (from 5 pm)', range: { from: '17:00' } },
} as const satisfies Record<string, { label: string; range: { from?: string; to?: string } }>;
export type WindowKey = keyof typeof WINDOWS;

/** The window saved wants name (one the API was given from elsewhere reads as the nearest: any time). */
export function windowOf(wants: Pick<QueueWants, 'from' | 'to'> | null): WindowKey {
  const found = (Object.keys(WINDOWS) as WindowKey[]).find((key) => {
    const range: { from?: string; to?: string } = WINDOWS[key].range;
    return range.from === wants?.from && range.to === wants?.to;
  });
  return found ?? 'any';
}
