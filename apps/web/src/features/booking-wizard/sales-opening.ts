import type { Location } from '@kringle/contracts/catalogue';
import { formatSessionTime } from '@kringle/contracts/dates';

/**
 * "Bookings open Sat 1 Nov, 9:00 am AEDT" while a location's opening lies ahead on the server's
 * clock (lib/server-clock.ts), in the location's own zone; null once it is on sale.
 */
export function salesOpeningNote(location: Pick<Location, 'salesOpenAt' | 'timezone'>, serverNowMs: number): string | null {
  if (!location.salesOpenAt || Date.parse(location.salesOpenAt) <= serverNowMs) return null;
  return `Bookings open ${formatSessionTime(location.salesOpenAt, location.timezone)}`;
}
