import { zoneAbbreviation } from '@kringle/contracts/dates';
import { zoneLabel } from '../../../lib/zone-label';
import { Button } from '../../../components/ui/button';
import { useGetLocationsQuery } from '../api';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { nextStep, setLocation } from '../state/booking-slice';
import { StepFrame, ChoiceCard } from './step-frame';
import { LoadProblem, LoadingList } from './load-states';
import { serverNow } from '../../../lib/server-clock';
import { QueueStepNotice } from '../queue/queue-step-notice';
import { salesOpeningNote } from '../queue/sales-opening';

/** The zone's short name during the season ("AEDT"), read at the season's first day. */
function seasonZone(seasonStart: string, timezone: string): string {
  return zoneAbbreviation(new Date(`${seasonStart}T12:00:00Z`), timezone);
}

/** Step 1: where. One card per centre with its address and local time zone. */
export function LocationStep({ focusOnMount }: { focusOnMount: boolean }) {
  const dispatch = useWizardDispatch();
  const chosen = useWizardSelector((s) => s.booking.location);
  const { data: locations, isLoading, isError, refetch } = useGetLocationsQuery();

  return (
    <StepFrame
      title="Where would you like to visit Santa?"
      intro="Choose a centre. Session times are shown in that centre's local time."
      focusOnMount={focusOnMount}
      actions={
        <Button className="sm:ml-auto sm:min-w-40" disabled={!chosen} onClick={() => dispatch(nextStep())}>
          Continue
        </Button>
      }
    >
      {isLoading && <LoadingList label="Loading locations" />}
      {isError && <LoadProblem what="the locations" onRetry={() => void refetch()} />}
      {locations && (
        <ul className="grid gap-3 sm:grid-cols-2">
          {locations.map((location) => {
            const opening = salesOpeningNote(location, serverNow());
            return (
              <li key={location.id}>
                <ChoiceCard chosen={chosen?.id === location.id} onClick={() => dispatch(setLocation(location))}>
                  <span className="pr-8 text-lg font-semibold text-ink-900">{location.name}</span>
                  <span className="text-ink-700">
                    {location.suburb}, {location.state}
                  </span>
                  <span className="text-sm text-ink-600">{location.address}</span>
                  <span
                    className={
                      'mt-1 inline-flex w-fit items-center rounded-full bg-cream-200 px-2.5 py-0.5 ' +
                      'text-sm font-medium text-ink-700'
                    }
                  >
                    {zoneLabel(location.timezone, seasonZone(location.seasonStart, location.timezone))}
                  </span>
                  {opening && <span className="text-sm font-semibold text-ink-900">{opening}</span>}
                </ChoiceCard>
              </li>
            );
          })}
        </ul>
      )}
      {/* The waiting room as it stands for this family: let in, in line, or not yet joined (issue 53 item 10). */}
      {chosen && <QueueStepNotice key={chosen.id} location={chosen} />}
    </StepFrame>
  );
}
