import { formatClockTime } from '@kringle/contracts/dates';
import type { RunSheetSlot } from '@kringle/contracts/staff';
import { ErrorText, input, label } from '../parts/form-parts';

/** Today's free sessions; says so when the chosen one has gone (booked online, or started). */
export function WalkInSessionField({
  id,
  free,
  slot,
  gone,
  timezone,
  onChoose,
}: {
  id: string;
  free: RunSheetSlot[];
  slot: RunSheetSlot | undefined;
  gone: RunSheetSlot | undefined;
  timezone: string;
  onChoose: (slotId: string) => void;
}) {
  return (
    <>
      <label className={label}>
        Free session today
        <select
          className={input}
          value={slot?.id ?? ''}
          onChange={(e) => onChoose(e.target.value)}
          required
          aria-invalid={gone ? true : undefined}
          aria-describedby={gone ? `${id}-gone` : undefined}
        >
          {free.length === 0 && <option value="">No free sessions left today</option>}
          {free.length > 0 && !slot && (
            <option value="" disabled>
              Choose a session
            </option>
          )}
          {free.map((s) => (
            <option key={s.id} value={s.id}>
              {formatClockTime(s.startAt, timezone)} · {s.slotType.name}
            </option>
          ))}
        </select>
      </label>
      {gone && (
        <ErrorText id={`${id}-gone`}>
          {`The ${formatClockTime(gone.startAt, timezone)} session is no longer free (booked online, or started). ` +
            `Choose another session.`}
        </ErrorText>
      )}
    </>
  );
}
