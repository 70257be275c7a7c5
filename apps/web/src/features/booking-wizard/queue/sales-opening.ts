import type { Location } from '@kringle/contracts/catalogue';
import { formatSessionTime } from '@kringle/contracts/dates';

/**
 * "Bookings open Sat 1 Nov, 9:00 am AEDT" while a location's opening lies ahead on the server's
 * clock (lib/server-clock.ts), in the location's own zone; null once it is on sale.
 */
export function salesOpeningNote(
  location: Pick<Location, 'salesOpenAt' | 'timezone'>,
  serverNowMs: number,
): string | null {
  if (!location.salesOpenAt || Date.parse(location.salesOpenAt) <= serverNowMs) return null;
  return `Bookings open ${formatSessionTime(location.salesOpenAt, location.timezone)}`;
}

/** "2 days 3 h", "1 h 05 min", "4:09": the time left before an opening, coarser the further away. */
export function openingCountdown(msLeft: number): string {
  const s = Math.max(0, Math.ceil(msLeft / 1000));
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (days > 0) return `${days} day${days === 1 ? '' : 's'} ${hours} h`;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  return `${minutes}:${String(s % 60).padStart(2, '0')}`;
}
