import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { PickerDay } from '../calendar/date-picker';
import { Button } from '../../../components/ui/button';
import { track } from '../../../lib/analytics';
import { ordinal, waitlistDayName as dayName } from '../../../lib/waitlist-words';
import type { ApiError } from '../../../lib/api-error';
import { useGetPolicyQuery } from '../../../lib/policy-api';
import { useGetWaitlistQuery, useJoinWaitlistMutation } from '../../../lib/waitlist-api';

export interface WaitlistJoinProps {
  locationId: string;
  locationName: string;
  slotTypeId: string;
  slotTypeName: string;
  /** The season's days of this session type; those with nothing left can be waited for. */
  days: PickerDay[];
  /** The day on show, preselected when it is full. */
  shownDate: string | null;
}

/**
 * Issue 20: a day with no session of this type left offers "Join the waitlist". When a session
 * frees up, the first family in line is held it and e-mailed a link (API.md "Waitlist").
 */
export function WaitlistJoin({
  locationId,
  locationName,
  slotTypeId,
  slotTypeName,
  days,
  shownDate,
}: WaitlistJoinProps) {
  // Fully booked days only: a closed day (no sessions at all) has nothing to wait for.
  const full = days.filter((d) => d.available === 0 && d.sessions > 0);
  const [picked, setPicked] = useState<string | null>(null);
  const [join, state] = useJoinWaitlistMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const [joined, setJoined] = useState<{ date: string; position: number } | null>(null);
  const policy = useGetPolicyQuery().data;
  // Days already waited for (joined here, or earlier: the panel forgets on Back) are not offered again.
  const entries = useGetWaitlistQuery().data ?? [];
  const waiting = entries.filter(
    (e) => e.locationId === locationId && e.slotTypeId === slotTypeId && full.some((d) => d.date === e.date),
  );
  const selectId = useId();
  if (full.length === 0) return null;
  const open = full.filter((d) => !waiting.some((e) => e.date === d.date));
  const date =
    picked && open.some((d) => d.date === picked)
      ? picked
      : open.some((d) => d.date === shownDate)
        ? shownDate!
        : (open[0]?.date ?? null);
  const earlier = waiting.filter((e) => e.date !== joined?.date);

  const submit = async () => {
    setProblem(null);
    if (!date) return;
    const result = await join({ locationId, slotTypeId, date });
    if ('error' in result) {
      setProblem((result.error as ApiError).data?.error ?? 'We could not add you to the waitlist. Please try again.');
      return;
    }
    setJoined({ date, position: result.data.position });
    track('waitlist_join', {
      location_id: locationId,
      location_name: locationName,
      slot_type: slotTypeName,
      session_date: date,
      position: result.data.position,
    });
  };

  return (
    <section
      aria-labelledby={`${selectId}-heading`}
      className="flex flex-col gap-3 rounded-2xl border border-cream-300 bg-cream-50 p-4"
      data-testid="waitlist-join"
    >
      <h3 id={`${selectId}-heading`} className="text-lg font-semibold text-ink-900">
        Day you want is full? Join the waitlist
      </h3>
      {joined && (
        <p role="status" className="rounded-xl bg-pine-50 p-3 text-ink-900">
          You are on the waitlist for {dayName(joined.date)},{' '}
          <span className="font-semibold">{ordinal(joined.position)} in line</span>. If a {slotTypeName} session comes
          free that day, we hold it for you{policy ? ` for ${policy.waitlistOfferMinutes} minutes` : ''} and e-mail you
          a link. Your place is in{' '}
          <Link to="/bookings" className="font-semibold text-festive-700 underline underline-offset-2">
            My Bookings
          </Link>
          .
        </p>
      )}
      {earlier.length > 0 && (
        <p className="text-ink-800">
          You are already on the waitlist for{' '}
          {earlier.map((e) => `${dayName(e.date)} (${ordinal(e.position)} in line)`).join(', ')}. Your place is in{' '}
          <Link to="/bookings" className="font-semibold text-festive-700 underline underline-offset-2">
            My Bookings
          </Link>
          .
        </p>
      )}
      {!joined && date && (
        <p className="text-ink-700">
          When a {slotTypeName} session at {locationName} frees up on a full day, the first family in line gets it, held
          for them
          {policy ? ` for ${policy.waitlistOfferMinutes} minutes` : ''}, with an e-mail.
        </p>
      )}
      {date && (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <label htmlFor={selectId} className="flex flex-1 flex-col gap-1 text-sm font-semibold text-ink-800">
            Full day
            <select
              id={selectId}
              value={date}
              onChange={(e) => setPicked(e.target.value)}
              className="min-h-11 rounded-xl border border-cream-300 bg-white px-3 text-base font-normal text-ink-900"
            >
              {open.map((d) => (
                <option key={d.date} value={d.date}>
                  {dayName(d.date)}
                </option>
              ))}
            </select>
          </label>
          <Button variant="secondary" onClick={() => void submit()} disabled={state.isLoading} className="sm:w-auto">
            {state.isLoading ? 'Joining…' : 'Join the waitlist'}
          </Button>
        </div>
      )}
      {problem && (
        <p role="alert" className="rounded-xl bg-festive-50 p-3 font-medium text-festive-800">
          {problem}
        </p>
      )}
    </section>
  );
}
