import { localDateOf } from '@kringle/contracts/dates';
import type { StaffBooking, StaffCatalogue } from '@kringle/contracts/staff';
import { useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { NowAndNext } from './now-and-next';
import { RunSheetCounts } from './run-sheet-counts';
import { SheetRow } from './run-sheet-row';
import { downloadFile, postJson } from '../session/staff-client';
import { useRunSheet } from './use-run-sheet';
import { RunningLate } from './running-late';
import type { PhotoTarget } from '../photos/photos-page';

type Location = StaffCatalogue['locations'][number];

const downloadCsv = (locationId: string, date: string) =>
  downloadFile(
    `/staff/run-sheet.csv?${new URLSearchParams({ locationId, date }).toString()}`,
    'text/csv',
    `run-sheet-${date}.csv`,
  );

type Show = 'now' | 'all' | 'break';
const SHOW_LABELS: Record<Show, string> = { now: 'Now and next', all: 'Whole day', break: 'Breaks only' };
/** A phone at the set opens today on "Now and next"; wider screens on the whole day. */
const phone = () => window.matchMedia?.('(max-width: 800px)').matches ?? false;

/**
 * The day at one location: counts, then every session and break in order with its families (or,
 * today, what is on now and next with the quiet sessions folded: the view a phone opens on).
 * `onUploadPhotos`: offered to the roles that upload (set, manager) on each confirmed booking;
 * `mayTellDelay`: today's "Santa is running late" (set, manager).
 */
export function RunSheetPage({
  location,
  onSellWalkIn,
  onUploadPhotos,
  mayTellDelay = false,
}: {
  location: Location;
  onSellWalkIn: (slotId: string) => void;
  onUploadPhotos?: (target: PhotoTarget) => void;
  mayTellDelay?: boolean;
}) {
  const today = localDateOf(new Date(), location.timezone);
  const [date, setDate] = useState(today);
  const [chosen, setShow] = useState<Show>(() => (phone() ? 'now' : 'all'));
  // "Now and next" is today's view: another day shows whole.
  const show = chosen === 'now' && date !== today ? 'all' : chosen;
  const { sheet, error, reload } = useRunSheet(location.id, date, show === 'break' ? 'break' : 'all');
  // A refused row action is shown on its row (bookingId): at the top of a long day it is out of sight.
  const [problem, setProblem] = useState<{ bookingId: string | null; message: string } | null>(null);
  const [lateOpen, setLateOpen] = useState(false);
  const lateButton = useRef<HTMLButtonElement>(null);
  const offerLate = mayTellDelay && date === today;

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
    checkIn: (b: StaffBooking) =>
      act(() => postJson('/staff/check-ins', { locationId: location.id, reference: b.reference }), b.id),
    noShow: (b: StaffBooking) => act(() => postJson(`/staff/bookings/${b.id}/no-show`), b.id),
    undo: (b: StaffBooking) => act(() => postJson(`/staff/bookings/${b.id}/undo`), b.id),
    receipt: (b: StaffBooking) =>
      act(
        () => downloadFile(`/staff/bookings/${b.id}/receipt`, 'application/pdf', `tax-invoice-${b.reference}.pdf`),
        b.id,
      ),
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
          <input
            type="date"
            value={date}
            onChange={(e) => setDate(e.target.value || today)}
            className="min-h-11 rounded-lg border border-cream-300 bg-cream-50 px-3 text-base font-normal"
          />
        </label>
        <fieldset className="flex flex-wrap gap-1">
          <legend className="mb-1 text-sm font-semibold">Show</legend>
          {(date === today ? (['now', 'all', 'break'] as const) : (['all', 'break'] as const)).map((f) => (
            <Button
              key={f}
              variant={show === f ? 'confirm' : 'secondary'}
              aria-pressed={show === f}
              onClick={() => setShow(f)}
            >
              {SHOW_LABELS[f]}
            </Button>
          ))}
        </fieldset>
        <div className="ml-auto flex flex-wrap gap-2">
          {offerLate && (
            <Button
              ref={lateButton}
              variant={lateOpen ? 'confirm' : 'secondary'}
              aria-expanded={lateOpen}
              onClick={() => setLateOpen(!lateOpen)}
            >
              Santa is running late
            </Button>
          )}
          {nowIndex > 0 && show !== 'now' && (
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
        {new Intl.DateTimeFormat('en-AU', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
          new Date(`${date}T00:00:00Z`),
        )}
      </h1>
      {offerLate && lateOpen && (
        <RunningLate
          locationId={location.id}
          onClose={() => {
            setLateOpen(false);
            lateButton.current?.focus();
          }}
        />
      )}
      {sheet && <RunSheetCounts counts={sheet.counts} />}
      {topProblem && (
        <p role="alert" className="rounded-lg bg-festive-50 px-4 py-3 font-semibold text-festive-800">
          {topProblem}
        </p>
      )}
      {!sheet ? (
        <p className="text-ink-700">Loading the run sheet…</p>
      ) : sheet.items.length === 0 ? (
        <p className="text-ink-700">No sessions on this day.</p>
      ) : show === 'now' ? (
        <NowAndNext
          items={sheet.items}
          timezone={sheet.timezone}
          props={{
            timezone: sheet.timezone,
            isToday: true,
            actions,
            onSellWalkIn,
            onUploadPhotos,
            problemOf: (item) => (item.booking && problem?.bookingId === item.booking.id ? problem.message : null),
          }}
        />
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
