/**
 * The waitlist's guard in every hold statement (decision 0028): a session whose day has a family
 * waiting is not for sale. It goes to the first of them (waitlist.hand-off.ts), so no public hold
 * can take it, whether it was freed a moment ago or its hold merely lapsed without any write.
 * `s` is the slots row's name in the statement. Probes waitlist_line_idx; with nobody waiting on
 * any day (most of the season) it reads one empty index page.
 */
export const noOneWaitingFor = (s: string): string => `not exists (
  select 1 from waitlist_entries w join locations wl on wl.id = w.location_id
  where w.status = 'waiting' and w.location_id = ${s}.location_id and w.slot_type_id = ${s}.slot_type_id
    and w.date = (${s}.start_at at time zone wl.timezone)::date)`;
