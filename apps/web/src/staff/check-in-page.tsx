import { formatClockTime } from '@kringle/contracts/dates';
import { CHECK_IN_UNDO_SECONDS, type StaffBooking, type StaffCatalogue } from '@kringle/contracts/staff';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../components/ui/button';
import { AttendanceTag, FamilyDetails, familyName } from './booking-card';
import { startScanner } from './qr-scanner';
import { ApiProblem, postJson } from './staff-client';

type Location = StaffCatalogue['locations'][number];
type Outcome = { kind: 'ok'; booking: StaffBooking; timing?: string } | { kind: 'problem'; title: string; message: string };

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

  async function checkIn(body: { code: string } | { reference: string }) {
    setBusy(true);
    try {
      const booking = await postJson<StaffBooking>('/staff/check-ins', { locationId: location.id, ...body });
      setOutcome({ kind: 'ok', booking, timing: timingOf(booking, location.timezone, Date.now()) });
    } catch (err) {
      const code = err instanceof ApiProblem ? err.code : 'ERROR';
      setOutcome({ kind: 'problem', title: TITLES[code] ?? 'Not checked in', message: err instanceof Error ? err.message : 'Please try again.' });
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    if (!scanning || !video.current) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    startScanner(video.current, (code) => {
      // The same code stays in view for a while: one check-in per code every few seconds.
      const now = Date.now();
      if (lastCode.current && lastCode.current.code === code && now - lastCode.current.at < 5000) return;
      lastCode.current = { code, at: now };
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

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const reference = String(new FormData(event.currentTarget).get('reference') ?? '').trim();
    if (reference) void checkIn({ reference });
  }

  async function undo(booking: StaffBooking) {
    try {
      setOutcome({ kind: 'ok', booking: await postJson<StaffBooking>(`/staff/bookings/${booking.id}/undo`) });
    } catch (err) {
      setOutcome({ kind: 'problem', title: 'Not undone', message: err instanceof Error ? err.message : 'Please try again.' });
    }
  }

  return (
    <section aria-labelledby="check-in-title" className="grid gap-6 lg:grid-cols-2">
      <div className="space-y-4">
        <h1 id="check-in-title" className="text-3xl font-semibold">
          Check in at {location.name}
        </h1>
        <div className="overflow-hidden rounded-2xl bg-ink-900">
          <video ref={video} muted playsInline aria-label="Camera view for scanning QR codes" className={scanning ? 'aspect-video w-full object-cover' : 'hidden'} />
          {!scanning && <p className="p-6 text-cream-50">Scan the QR code on the family&apos;s phone or confirmation e-mail.</p>}
        </div>
        <Button variant={scanning ? 'secondary' : 'confirm'} onClick={() => setScanning((s) => !s)}>
          {scanning ? 'Stop camera' : 'Scan QR code'}
        </Button>
        {cameraError && (
          <p role="alert" className="font-semibold text-festive-800">
            {cameraError}
          </p>
        )}
        <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col gap-1 font-semibold">
            Booking reference
            <input name="reference" placeholder="KR-7K3Q9" autoComplete="off" className="min-h-11 rounded-lg border border-cream-300 bg-cream-50 px-3 font-mono text-base uppercase" />
          </label>
          <Button type="submit" disabled={busy}>
            Check in
          </Button>
        </form>
      </div>
      <div aria-live="polite">
        {outcome?.kind === 'ok' && <Result booking={outcome.booking} timing={outcome.timing} timezone={location.timezone} onUndo={() => void undo(outcome.booking)} />}
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

function Result({ booking, timing, timezone, onUndo }: { booking: StaffBooking; timing?: string; timezone: string; onUndo: () => void }) {
  return (
    <div className="space-y-3 rounded-2xl bg-pine-50 p-5 ring-2 ring-pine-700">
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="text-2xl font-semibold">
          {familyName(booking.customer).fullname}
        </h2>
        <AttendanceTag attendance={booking.attendance} />
      </div>
      <p>
        <span className="font-mono">{booking.reference}</span> · {booking.slotType.name} at {formatClockTime(booking.slot.startAt, timezone)}
        {booking.checkedInAt && <> · checked in at {formatClockTime(booking.checkedInAt, timezone)}</>}
      </p>
      {timing && <p className="rounded-lg bg-gold-300 px-3 py-2 font-semibold text-ink-900">{timing}</p>}
      <FamilyDetails booking={booking} timezone={timezone} />
      {booking.attendance === 'checked_in' && (
        <div className="flex flex-wrap items-center gap-3">
          <Button variant="secondary" onClick={onUndo}>
            Undo check-in
          </Button>
          <span className="text-sm text-ink-700">Within {CHECK_IN_UNDO_SECONDS} seconds, if this was the wrong family.</span>
        </div>
      )}
    </div>
  );
}
