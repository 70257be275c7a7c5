import type { Location, Package } from '@kringle/contracts/catalogue';
import type { QueueWants } from '@kringle/contracts/queue';
import { Button } from '../../../components/ui/button';
import { WINDOWS, windowOf } from './queue-windows';

const dayLabel = (date: string) =>
  new Intl.DateTimeFormat('en-AU', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );

/** What will be held at the family's turn, in words (issue 55: "what will be held" on the waiting page). */
export function ChoicesSummary({
  location,
  wants,
  packages,
  onChange,
}: {
  location: Location;
  wants: QueueWants;
  packages: Package[];
  onChange: () => void;
}) {
  const type = location.slotTypes.find((t) => t.id === wants.slotTypeId);
  const window = windowOf(wants);
  const lines = wants.packages
    .map((line) => `${line.quantity} × ${packages.find((p) => p.id === line.id)?.name ?? 'package'}`)
    .join(', ');
  return (
    <div className="flex flex-col gap-2 border-t border-gold-400 pt-3" data-testid="queue-choices-summary">
      <p className="text-sm text-ink-900">
        <span className="font-semibold">Your choices are saved.</span> At your turn we hold the first free{' '}
        {type?.name ?? 'session'} session {wants.date ? `on ${dayLabel(wants.date)}` : 'on any day'}
        {window === 'any' ? '' : `, ${WINDOWS[window].label.toLowerCase()}`}, with {lines}, and take you to pay. If none
        is left, you choose from what there is.
      </p>
      <Button variant="secondary" className="w-full sm:w-fit" onClick={onChange}>
        Change my choices
      </Button>
    </div>
  );
}
