import { zoneAbbreviation } from '@kringle/contracts/dates';

/**
 * "Brisbane time (AEST)": the zone named by its IANA city and short name, never by the centre's
 * suburb ("Brisbane City local time" named no zone at all: issue 53 item 19). `abbreviation` is
 * the short name already worked out for a day (null on a day the clocks change: the city alone).
 */
export function zoneLabel(timezone: string, abbreviation: string | null): string {
  const city = (timezone.split('/').at(-1) ?? timezone).replace(/_/g, ' ');
  return abbreviation ? `${city} time (${abbreviation})` : `${city} time`;
}

/** The label at one instant (a session's start). */
export const zoneLabelAt = (instant: string | Date, timezone: string) =>
  zoneLabel(timezone, zoneAbbreviation(typeof instant === 'string' ? new Date(instant) : instant, timezone));
