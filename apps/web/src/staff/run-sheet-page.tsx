import { formatClockTime, localDateOf } from '@kringle/contracts/dates';
import { SLOT_STATE_LABELS, type RunSheet, type StaffBooking, type StaffCatalogue } from '@kringle/contracts/staff';
import { clsx } from 'clsx';
import { useState } from 'react';
import { Button, buttonClasses } from '../components/ui/button';
import { AttendanceTag, canUndoCheckIn, FamilyDetails, familyName } from './booking-card';
import { downloadFile, postJson } from './staff-client';
import { useRunSheet } from './use-run-sheet';
import type { PhotoTarget } from './photos/photos-page';

type Location = StaffCatalogue['locations'][number];

const COUNTS: { key: keyof RunSheet['counts']; label: string }[] = [
  { key: 'booked', label: 'Booked' },
  { key: 'checkedIn', label: 'Checked in' },
  { key: 'noShow', label: 'No-shows' },
  { key: 'cancelled', label: 'Cancelled' },
  { key: 'free', label: 'Free sessions' },
  { key: 'people', label: 'People expected' },
];

const downloadCsv = (locationId: string, date: string) =>
  downloadFile(`/staff/run-sheet.csv?${new URLSearchParams({ locationId, date }).toString()}`, 'text/csv', `run-sheet-${date}.csv`);

/** The day at one location: counts, then every session and break in order with its families. */
/** `onUploadPhotos`: offered to the roles that upload (set, manager) on each confirmed booking. */
export function RunSheetPage({ location, onSellWalkIn, onUploadPhotos }: { location: Location; onSellWalkIn: (slotId: string) => void; onUploadPhotos?: (target: PhotoTarget) => void }) {
  const today = localDateOf(new Date(), location.timezone);
  const [date, setDate] = useState(today);
  const [filter, setFilter] = useState<'all' | 'break'>('all');
  const { sheet, error, reload } = useRunSheet(location.id, date, filter);
  // A refused row action is shown on its row (bookingId): at the top of a long day it is out of sight.
  const [problem, setProblem] = useState<{ bookingId: string | null; message: string } | null>(null);

  async function act(run: () => Promise<unknown>, bookingId: string | null = null) {
    setProblem(null);
    try {
      await run();
    } catch (err) {
      setProblem({ bookingId, message: err instanceof Error ? err.message : 'That did not work. Please try again.' });
    }
    await reload();
  }
  const actions = {
    checkIn: (b: StaffBooking) => act(() => postJson('/staff/check-ins', { locationId: location.id, reference: b.reference }), b.id),
    noShow: (b: StaffBooking) => act(() => postJson(`/staff/bookings/${b.id}/no-show`), b.id),
    undo: (b: StaffBooking) => act(() => postJson(`/staff/bookings/${b.id}/undo`), b.id),
    receipt: (b: StaffBooking) => act(() => downloadFile(`/staff/bookings/${b.id}/receipt`, 'application/pdf', `tax-invoice-${b.reference}.pdf`), b.id),
  };
  const topProblem = problem && problem.bookingId === null ? problem.message : error;
  // A full day is a long list on a phone: the first session not yet over is one tap away.
  const nowIndex = date === today && sheet ? sheet.items.findIndex((i) => new Date(i.slot.endAt) > new Date()) : -1;
  const jumpToNow = () => {
    const row = document.querySelector<HTMLElement>('[data-now]');
    row?.scrollIntoView({ block: 'start' });
    row?.focus({ preventScroll: true });
  };

  return (
    <section aria-labelledby="run-sheet-title" className="space-y-4">
      <div className="flex flex-wrap items-end gap-4" data-print="hide">
        <label className="flex flex-col gap-1 text-sm font-semibold">
          Day
          <input type="date" value={date} onChange={(e) => setDate(e.target.value || today)} className="min-h-11 rounded-lg border border-cream-300 bg-cream-50 px-3 text-base font-normal" />
        </label>
        <fieldset className="flex gap-1">
          <legend className="mb-1 text-sm font-semibold">Show</legend>
          {(['all', 'break'] as const).map((f) => (
            <Button key={f} variant={filter === f ? 'confirm' : 'secondary'} aria-pressed={filter === f} onClick={() => setFilter(f)}>
              {f === 'all' ? 'Sessions and breaks' : 'Breaks only'}
            </Button>
          ))}
        </fieldset>
        <div className="ml-auto flex flex-wrap gap-2">
          {nowIndex > 0 && (
            <Button variant="secondary" onClick={jumpToNow}>
              Jump to now
            </Button>
          )}
          <Button variant="secondary" onClick={() => void act(() => downloadCsv(location.id, date))}>
            Download CSV
          </Button>
          <Button variant="secondary" onClick={() => window.print()}>
            Print
          </Button>
        </div>
      </div>
      <h1 id="run-sheet-title" className="text-3xl font-semibold">
        Run sheet: {location.name},{' '}
        {new Intl.DateTimeFormat('en-AU', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`))}
      </h1>
      {sheet && (
        <ul aria-label="Counts" className="grid grid-cols-3 gap-2 md:grid-cols-6">
          {COUNTS.map((c) => (
            <li key={c.key} className="rounded-xl bg-cream-50 p-3 ring-1 ring-cream-300" data-print="block">
              <span className="block text-2xl font-bold">{sheet.counts[c.key]}</span>
              <span className="text-sm text-ink-700">{c.label}</span>
            </li>
          ))}
        </ul>
      )}
      {topProblem && (
        <p role="alert" className="rounded-lg bg-festive-50 px-4 py-3 font-semibold text-festive-800">
          {topProblem}
        </p>
      )}
      {!sheet ? (
        <p className="text-ink-700">Loading the run sheet…</p>
      ) : sheet.items.length === 0 ? (
        <p className="text-ink-700">No sessions on this day.</p>
      ) : (
        <ol className="space-y-2">
          {sheet.items.map((item, index) => (
            <SheetRow
              now={index === nowIndex}
              key={`${item.slot.id}-${item.booking?.id ?? 'none'}`}
              item={item}
              timezone={sheet.timezone}
              isToday={date === today}
              actions={actions}
              onSellWalkIn={onSellWalkIn}
              onUploadPhotos={onUploadPhotos}
              problem={item.booking && problem?.bookingId === item.booking.id ? problem.message : null}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

interface RowActions {
  checkIn: (b: StaffBooking) => Promise<void>;
  noShow: (b: StaffBooking) => Promise<void>;
  undo: (b: StaffBooking) => Promise<void>;
  receipt: (b: StaffBooking) => Promise<void>;
}

interface SheetRowProps {
  item: RunSheet['items'][number];
  timezone: string;
  isToday: boolean;
  actions: RowActions;
  onSellWalkIn: (slotId: string) => void;
  onUploadPhotos?: (target: PhotoTarget) => void;
  /** Why this row's last action was refused. */
  problem: string | null;
  /** The first row not yet over today ("Jump to now" lands here). */
  now: boolean;
}

function SheetRow({ item, timezone, isToday, actions, onSellWalkIn, onUploadPhotos, problem, now }: SheetRowProps) {
  const marker = now ? { 'data-now': '', tabIndex: -1 } : {};
  const { slot, booking } = item;
  const time = `${formatClockTime(slot.startAt, timezone)} – ${formatClockTime(slot.endAt, timezone)}`;
  const started = new Date(slot.startAt) <= new Date();
  if (slot.kind === 'break') {
    return (
      <li {...marker} className="flex scroll-mt-2 items-center gap-4 rounded-xl bg-cream-200 px-4 py-2 text-ink-700" data-print="block">
        <span className="shrink-0 font-semibold whitespace-nowrap md:w-48">{time}</span>
        <span>Break</span>
      </li>
    );
  }
  return (
    <li {...marker} className={clsx('flex scroll-mt-2 flex-col gap-3 rounded-xl bg-cream-50 px-4 ring-1 ring-cream-300 md:flex-row', booking ? 'py-3' : 'py-1.5', booking?.attendance === 'cancelled' && 'opacity-80')} data-print="block">
      <div className="shrink-0 md:w-48">
        <span className="block font-semibold whitespace-nowrap">{time}</span>
        <span className="text-sm text-ink-700">{slot.slotType.name}</span>
      </div>
      {booking ? (
        <div className="flex flex-1 flex-col gap-2">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="text-lg font-semibold">{familyName(booking.customer).fullname}</span>
            <span className="font-mono text-sm">{booking.reference}</span>
            <AttendanceTag attendance={booking.attendance} />
            {booking.source === 'walkin' && <span className="rounded-full bg-cream-200 px-3 py-0.5 text-sm font-semibold">Walk-in</span>}
          </div>
          <FamilyDetails booking={booking} timezone={timezone} />
          {problem && (
            <p role="alert" className="rounded-lg bg-festive-50 px-3 py-2 font-semibold text-festive-800">
              {problem}
            </p>
          )}
        </div>
      ) : (
        <div className="flex flex-1 items-center gap-3 text-ink-700">
          <span className="font-semibold">{SLOT_STATE_LABELS[slot.state]}</span>
        </div>
      )}
      <div className="flex shrink-0 flex-wrap items-start gap-2 md:max-w-60 md:justify-end" data-print="hide">
        {booking && booking.attendance === 'confirmed' && isToday && (
          <Button variant="confirm" onClick={() => void actions.checkIn(booking)} aria-label={`Check in ${familyName(booking.customer).lastname} family, ${booking.reference}`}>
            Check in
          </Button>
        )}
        {booking && booking.attendance === 'confirmed' && started && (
          <Button variant="secondary" onClick={() => void actions.noShow(booking)} aria-label={`Mark ${booking.reference} no-show`}>
            No-show
          </Button>
        )}
        {booking && (canUndoCheckIn(booking) || booking.attendance === 'no_show') && (
          <Button variant="secondary" onClick={() => void actions.undo(booking)} aria-label={`Undo for ${booking.reference}`}>
            Undo
          </Button>
        )}
        {booking && booking.source === 'walkin' && booking.attendance !== 'cancelled' && (
          <Button variant="secondary" onClick={() => void actions.receipt(booking)} aria-label={`Tax invoice for ${booking.reference}`}>
            Tax invoice
          </Button>
        )}
        {booking && onUploadPhotos && booking.attendance !== 'cancelled' && (
          <Button
            variant="secondary"
            onClick={() => onUploadPhotos({ id: booking.id, reference: booking.reference, name: familyName(booking.customer).fullname })}
            aria-label={`Upload photos for ${booking.reference}`}
          >
            Upload photos
          </Button>
        )}
        {!booking && slot.state === 'free' && isToday && (
          <button type="button" className={buttonClasses('secondary')} onClick={() => onSellWalkIn(slot.id)} aria-label={`Sell walk-in, ${formatClockTime(slot.startAt, timezone)}`}>
            Sell walk-in
          </button>
        )}
      </div>
    </li>
  );
}
