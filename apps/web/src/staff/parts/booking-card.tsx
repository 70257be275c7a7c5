import { accessSummary } from '@kringle/contracts/access-needs';
import { formatClockTime } from '@kringle/contracts/dates';
import { nameParts } from '@kringle/contracts/names';
import {
  ATTENDANCE_LABELS,
  CHECK_IN_UNDO_SECONDS,
  STAFF_ACTION_LABELS,
  type Attendance,
  type StaffBooking,
} from '@kringle/contracts/staff';
import { clsx } from 'clsx';

const TAG: Record<Attendance, string> = {
  confirmed: 'bg-gold-300 text-ink-900',
  checked_in: 'bg-pine-700 text-cream-50',
  no_show: 'bg-ink-700 text-cream-50',
  cancelled: 'bg-festive-700 text-cream-50',
};

/** Whether a check-in can still be taken back (the API allows CHECK_IN_UNDO_SECONDS): offered only then. */
export const canUndoCheckIn = (booking: StaffBooking, now = Date.now()) =>
  booking.attendance === 'checked_in' &&
  !!booking.checkedInAt &&
  now < Date.parse(booking.checkedInAt) + CHECK_IN_UNDO_SECONDS * 1000;

/**
 * The family's name as the customer app and e-mails show it (the spec's name helper): the API
 * gives it as typed, often all lower case, and staff greet families by it.
 */
export function familyName(customer: StaffBooking['customer']) {
  return nameParts(customer.firstName, customer.lastName);
}

export function AttendanceTag({ attendance }: { attendance: Attendance }) {
  return (
    <span className={clsx('inline-flex items-center rounded-full px-3 py-0.5 text-sm font-semibold', TAG[attendance])}>
      {ATTENDANCE_LABELS[attendance]}
    </span>
  );
}

/**
 * Everything the set needs to greet a family: names and ages, who else, needs, notes, what they bought, and who did
 * what.
 */
export function FamilyDetails({ booking, timezone }: { booking: StaffBooking; timezone: string }) {
  const d = booking.details;
  const people = d ? d.children.length + d.adults : null;
  const last = booking.actions.at(-1);
  return (
    <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[8rem_1fr]">
      <dt className="font-semibold text-ink-600">Children</dt>
      <dd>{d ? d.children.map((c) => `${c.firstName} (${c.age})`).join(', ') || 'None' : 'Not told yet'}</dd>
      <dt className="font-semibold text-ink-600">People</dt>
      <dd>
        {people === null ? '—' : `${people} in the photo (${d!.adults} adult${d!.adults === 1 ? '' : 's'})`}
        {d && d.pets > 0 ? `, ${d.pets} pet${d.pets === 1 ? '' : 's'}` : ''}
      </dd>
      {d && (d.accessNeeds.length > 0 || d.accessNote) && (
        <>
          <dt className="font-semibold text-ink-600">Access</dt>
          <dd>{[accessSummary(d), d.accessNote].filter(Boolean).join('. ')}</dd>
        </>
      )}
      {d?.noteForSanta && (
        <>
          <dt className="font-semibold text-ink-600">For Santa</dt>
          <dd>{d.noteForSanta}</dd>
        </>
      )}
      <dt className="font-semibold text-ink-600">Bought</dt>
      <dd>{booking.items.map((i) => `${i.quantity} × ${i.name}`).join(', ')}</dd>
      {last && (
        <>
          <dt className="font-semibold text-ink-600">Last action</dt>
          <dd>
            {STAFF_ACTION_LABELS[last.action]} by {last.staffEmail} at {formatClockTime(last.at, timezone)}
          </dd>
        </>
      )}
    </dl>
  );
}
