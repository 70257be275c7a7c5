import { addDays, localDateOf, zoneAbbreviation, zonedToInstant } from '@kringle/contracts/dates';
import { DEFAULT_QUEUE_OPENS_MINUTES_BEFORE } from '@kringle/contracts/season';
import { useId } from 'react';
import { input, label } from '../parts/form-parts';
import type { SeasonFileLocation } from './season-api';
import { formatLocalOpening } from './season-changes';

type Edit = (change: (loc: SeasonFileLocation) => void) => void;

/** "AEDT" for the zone on that day (the opening may fall on either side of a daylight-saving change). */
function zoneOn(local: string | undefined, timeZone: string): string {
  try {
    const [day, time] = (local ?? '').split('T') as [string, string];
    return zoneAbbreviation(local ? zonedToInstant(day, time, timeZone) : new Date(), timeZone);
  } catch {
    return timeZone;
  }
}

/** A first guess for the opening, always ahead: 9:00 on the season's first day, or tomorrow there if that has come. */
function firstDay(l: SeasonFileLocation): string {
  let tomorrow: string;
  try {
    tomorrow = addDays(localDateOf(new Date(), l.timezone), 1);
  } catch {
    tomorrow = l.seasonStart;
  }
  return l.seasonStart < tomorrow ? tomorrow : l.seasonStart;
}

/**
 * "Perth time, AWST" for an Australian zone; the abbreviation alone for others ("GMT+10" for Etc/GMT-10, whose name
 * reads backwards).
 */
const zoneLabel = (timeZone: string, abbreviation: string) =>
  /^[A-Z][a-z]+\/[A-Za-z_]+$/.test(timeZone)
    ? `${timeZone.replace(/^.*\//, '').replace(/_/g, ' ')} time, ${abbreviation}`
    : `${abbreviation} time`;

/**
 * When bookings open (`salesOpenAt`, the location's own local time) and the fair start's waiting
 * room before it (`queue.opensMinutesBefore`, decision 0053): what a manager used to need the
 * season file and `season:load` for (issue 53 item 7). Previewed and saved as the rest of the form.
 */
export function OpeningFields({ location: loc, edit }: { location: SeasonFileLocation; edit: Edit }) {
  const id = useId();
  const atSetTime = loc.salesOpenAt !== undefined;
  const minutes = loc.queue?.opensMinutesBefore ?? DEFAULT_QUEUE_OPENS_MINUTES_BEFORE;
  const zone = zoneOn(loc.salesOpenAt, loc.timezone);
  return (
    <fieldset className="flex flex-col gap-3 rounded-lg p-3 ring-1 ring-cream-300">
      <legend className="px-1 font-semibold text-ink-900">Bookings open</legend>
      <div className="flex flex-col gap-1">
        <label className="flex min-h-11 items-center gap-2">
          <input
            type="radio"
            className="size-5"
            name={`${id}-when`}
            checked={!atSetTime}
            onChange={() =>
              edit((l) => {
                delete l.salesOpenAt;
                delete l.queue;
              })
            }
          />
          As soon as the season is saved
        </label>
        <label className="flex min-h-11 items-center gap-2">
          <input
            type="radio"
            className="size-5"
            name={`${id}-when`}
            checked={atSetTime}
            onChange={() => edit((l) => void (l.salesOpenAt = `${firstDay(l)}T09:00`))}
          />
          At a set time (a fair start)
        </label>
      </div>
      {atSetTime && (
        <div className="grid gap-3 md:grid-cols-2">
          <div className={label}>
            <label htmlFor={`${id}-at`} className="text-sm">
              Opening time ({zoneLabel(loc.timezone, zone)})
            </label>
            <input
              id={`${id}-at`}
              type="datetime-local"
              step={60}
              className={input}
              value={loc.salesOpenAt}
              aria-describedby={`${id}-at-hint`}
              onChange={(e) => e.target.value && edit((l) => void (l.salesOpenAt = e.target.value.slice(0, 16)))}
            />
            <p id={`${id}-at-hint`} className="text-sm text-ink-700">
              {formatLocalOpening(loc.salesOpenAt!, loc.timezone)}, the location&apos;s own time whatever this
              device&apos;s zone.
            </p>
          </div>
          <div className={label}>
            <label htmlFor={`${id}-queue`} className="text-sm">
              Waiting room opens (minutes before, 0 for none)
            </label>
            <input
              id={`${id}-queue`}
              type="number"
              inputMode="numeric"
              min={0}
              max={1440}
              step={1}
              className={input}
              value={minutes}
              aria-describedby={`${id}-queue-hint`}
              onChange={(e) =>
                edit(
                  (l) =>
                    void (l.queue = {
                      opensMinutesBefore: Math.max(0, Math.min(1440, Math.round(Number(e.target.value) || 0))),
                    }),
                )
              }
            />
            <p id={`${id}-queue-hint`} className="text-sm text-ink-700">
              {minutes > 0
                ? `Families join the line from ` +
                  `${minutes} minutes before; at the opening their places are drawn at random.`
                : 'No waiting room: everyone may book from the opening minute.'}
            </p>
          </div>
        </div>
      )}
    </fieldset>
  );
}
