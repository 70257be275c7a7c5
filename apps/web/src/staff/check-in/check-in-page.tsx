import { formatClockTime } from '@kringle/contracts/dates';
import { CHECK_IN_UNDO_SECONDS, type StaffBooking, type StaffCatalogue } from '@kringle/contracts/staff';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { AttendanceTag, canUndoCheckIn, FamilyDetails, familyName } from '../parts/booking-card';
import { usePassed } from '../../lib/use-passed';
import { startScanner } from './qr-scanner';
import { ApiProblem } from '../../lib/api-error';
import { postJson } from '../session/staff-client';

type Location = StaffCatalogue['locations'][number];
type Outcome =
  | { kind: 'ok'; booking: StaffBooking; timing?: string; already?: string }
  | { kind: 'problem'; title: string; message: string };

/** The scanner sees a code five times a second: it is handled again only after this long out of view. */
const SAME_CODE_GAP_MS = 3000;
/** How far the device's clock may be off the server's before a fresh check-in reads as an earlier one. */
const CLOCK_SLACK_MS = 30_000;

/**
 * What was typed or scanned into the box: a reference (with or without KR and its dash, any case), or
 * the QR code's whole contents, which a counter's USB scanner types like a keyboard.
 */
export function checkInEntry(text: string): { reference: string } | { code: string } {
  const compact = text.trim().toUpperCase().replace(/\s+/g, '');
  const reference = /^(?:KR-?)?([A-Z0-9]{5})$/.exec(compact);
  if (reference) return { reference: `KR-${reference[1]}` };
  return compact.length > 8 ? { code: text.trim() } : { reference: compact };
}

/** Said when the family was checked in before this scan: by whom and when, so nobody is checked in "again". */
function alreadyOf(booking: StaffBooking, sentAt: number, timezone: string): string | undefined {
  if (!booking.checkedInAt || Date.parse(booking.checkedInAt) > sentAt - CLOCK_SLACK_MS) return undefined;
  const by = booking.actions.findLast((a) => a.action === 'check_in')?.staffEmail;
  return `Already checked in at ${formatClockTime(booking.checkedInAt, timezone)}${by ? ` by ${by}` : ''}.`;
}

/** Checked in, but not for the session running now: said plainly, so the family is sent the right way. */
function timingOf(booking: StaffBooking, timezone: string, now: number): string | undefined {
  const start = Date.parse(booking.slot.startAt);
  const end = Date.parse(booking.slot.endAt);
  const at = formatClockTime(booking.slot.startAt, timezone);
  const minutes = Math.round((start - now) / 60_000);
  const wait = minutes >= 90 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} minutes`;
  if (minutes > 20) return `Early: their session is at ${at}, in ${wait}.`;
  if (end < now) return `Late: their session was at ${at}.`;
  return undefined;
}

const TITLES: Record<string, string> = {
  WRONG_LOCATION_OR_DAY: 'Wrong place or day',
  BOOKING_CANCELLED: 'Booking cancelled',
  BOOKING_NOT_CONFIRMED: 'Not paid',
  NOT_FOUND: 'Booking not found',
};

/** Check a family in by scanning their QR code or typing their reference; shows who they are, or why not. */
export function CheckInPage({ location }: { location: Location }) {
  const video = useRef<HTMLVideoElement>(null);
  const [scanning, setScanning] = useState(false);
  const [cameraError, setCameraError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const lastCode = useRef<{ code: string; at: number } | null>(null);
  const referenceBox = useRef<HTMLInputElement>(null);
  const result = useRef<HTMLDivElement>(null);

  // On a phone the result is under the camera and the form: bring it up, or the staff member sees nothing change.
  useEffect(() => {
    if (outcome) result.current?.scrollIntoView?.({ block: 'nearest' });
  }, [outcome]);

  async function checkIn(body: { code: string } | { reference: string }): Promise<boolean> {
    setBusy(true);
    const sentAt = Date.now();
    try {
      const booking = await postJson<StaffBooking>('/staff/check-ins', { locationId: location.id, ...body });
      setOutcome({
        kind: 'ok',
        booking,
        timing: timingOf(booking, location.timezone, Date.now()),
        already: alreadyOf(booking, sentAt, location.timezone),
      });
      return true;
    } catch (err) {
      const code = err instanceof ApiProblem ? err.code : 'ERROR';
      setOutcome({
        kind: 'problem',
        title: TITLES[code] ?? 'Not checked in',
        message: err instanceof Error ? err.message : 'Please try again.',
      });
      return false;
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    if (!scanning || !video.current) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    startScanner(video.current, (code) => {
      // One check-in per code while it stays in view (an undone check-in stays undone); again only
      // once it has been out of view for a moment.
      const now = Date.now();
      const last = lastCode.current;
      lastCode.current = { code, at: now };
      if (last && last.code === code && now - last.at < SAME_CODE_GAP_MS) return;
      void checkIn({ code });
    })
      .then((s) => (cancelled ? s() : (stop = s)))
      .catch(() => {
        setCameraError('The camera could not be opened. Allow camera access, or type the reference below.');
        setScanning(false);
      });
    return () => {
      cancelled = true;
      stop?.();
    };
    // checkIn only reads the location, which remounts this page when it changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scanning]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const box = referenceBox.current;
    if (!box?.value.trim()) return;
    const done = await checkIn(checkInEntry(box.value));
    // Ready for the next family; a refused entry stays, selected, to be corrected or typed over.
    if (done) box.value = '';
    box.focus({ preventScroll: true });
    if (!done) box.select();
  }

  async function undo(booking: StaffBooking) {
    try {
      setOutcome({ kind: 'ok', booking: await postJson<StaffBooking>(`/staff/bookings/${booking.id}/undo`) });
    } catch (err) {
      setOutcome({
        kind: 'problem',
        title: 'Not undone',
        message: err instanceof Error ? err.message : 'Please try again.',
      });
    }
  }

  return (
    <section aria-labelledby="check-in-title" className="grid gap-6 lg:grid-cols-2">
      <div className="space-y-4">
        <h1 id="check-in-title" className="text-3xl font-semibold">
          Check in at {location.name}
        </h1>
        <div className="overflow-hidden rounded-2xl bg-ink-900">
          <video
            ref={video}
            muted
            playsInline
            aria-label="Camera view for scanning QR codes"
            className={scanning ? 'aspect-video w-full object-cover' : 'hidden'}
          />
          {!scanning && (
            <p className="p-6 text-cream-50">Scan the QR code on the family&apos;s phone or confirmation e-mail.</p>
          )}
        </div>
        <Button variant={scanning ? 'secondary' : 'confirm'} onClick={() => setScanning((s) => !s)}>
          {scanning ? 'Stop camera' : 'Scan QR code'}
        </Button>
        {cameraError && (
          <p role="alert" className="font-semibold text-festive-800">
            {cameraError}
          </p>
        )}
        <form onSubmit={(e) => void submit(e)} className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col gap-1 font-semibold">
            Booking reference
            <input
              ref={referenceBox}
              name="reference"
              placeholder="KR-7K3Q9"
              autoComplete="off"
              className="min-h-11 rounded-lg border border-cream-300 bg-cream-50 px-3 font-mono text-base uppercase"
            />
          </label>
          <Button type="submit" disabled={busy}>
            Check in
          </Button>
        </form>
      </div>
      <div ref={result} aria-live="polite" className="scroll-mb-4">
        {outcome?.kind === 'ok' && (
          <Result
            booking={outcome.booking}
            timing={outcome.timing}
            already={outcome.already}
            timezone={location.timezone}
            onUndo={() => void undo(outcome.booking)}
          />
        )}
        {outcome?.kind === 'problem' && (
          <div role="alert" className="rounded-2xl bg-festive-50 p-5 ring-2 ring-festive-700">
            <h2 className="text-2xl font-semibold text-festive-800">{outcome.title}</h2>
            <p className="mt-2 text-lg text-ink-900">{outcome.message}</p>
          </div>
        )}
      </div>
    </section>
  );
}

function Result({
  booking,
  timing,
  already,
  timezone,
  onUndo,
}: {
  booking: StaffBooking;
  timing?: string;
  already?: string;
  timezone: string;
  onUndo: () => void;
}) {
  // The Undo button goes when the API would refuse it (re-rendered at that moment), rather than failing when tapped.
  usePassed(
    booking.checkedInAt ? new Date(Date.parse(booking.checkedInAt) + CHECK_IN_UNDO_SECONDS * 1000).toISOString() : null,
  );
  const undoable = canUndoCheckIn(booking);
  return (
    <div className="space-y-3 rounded-2xl bg-pine-50 p-5 ring-2 ring-pine-700">
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="text-2xl font-semibold">{familyName(booking.customer).fullname}</h2>
        <AttendanceTag attendance={booking.attendance} />
      </div>
      <p>
        <span className="font-mono">{booking.reference}</span> · {booking.slotType.name} at{' '}
        {formatClockTime(booking.slot.startAt, timezone)}
        {booking.checkedInAt && <> · checked in at {formatClockTime(booking.checkedInAt, timezone)}</>}
      </p>
      {already && <p className="rounded-lg bg-cream-200 px-3 py-2 font-semibold text-ink-900">{already}</p>}
      {timing && <p className="rounded-lg bg-gold-300 px-3 py-2 font-semibold text-ink-900">{timing}</p>}
      <FamilyDetails booking={booking} timezone={timezone} />
      {!already && booking.attendance !== 'checked_in' && booking.actions.at(-1)?.action === 'undo_check_in' && (
        <p className="rounded-lg bg-cream-200 px-3 py-2 font-semibold text-ink-900">
          Check-in undone: this family is not checked in.
        </p>
      )}
      {/* Not someone else's check-in from a while ago: only the one this device just made. */}
      {undoable && !already && (
        <div className="flex flex-wrap items-center gap-3">
          <Button variant="secondary" onClick={onUndo}>
            Undo check-in
          </Button>
          <span className="text-sm text-ink-700">
            Within {CHECK_IN_UNDO_SECONDS} seconds, if this was the wrong family.
          </span>
        </div>
      )}
    </div>
  );
}
