import { localDateOf } from '@kringle/contracts/dates';
import type { StaffPhoto } from '@kringle/contracts/photos';
import type { StaffCatalogue } from '@kringle/contracts/staff';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { familyName } from '../parts/booking-card';
import { postJson } from '../session/staff-client';
import { useRunSheet } from '../run-sheet/use-run-sheet';

type Location = StaffCatalogue['locations'][number];

/**
 * Photos no QR code claimed: each is given to a booking by its reference. The references are
 * looked up in the day's run sheet at this location (the set sees only its own locations' days).
 */
export function UnmatchedTray({
  location,
  photos,
  onAssigned,
}: {
  location: Location;
  photos: StaffPhoto[];
  onAssigned: (photoId: string, reference: string) => void;
}) {
  const today = localDateOf(new Date(), location.timezone);
  const [day, setDay] = useState(today);
  const { sheet } = useRunSheet(location.id, day);
  const listId = useId();
  const bookings = (sheet?.items ?? []).flatMap((i) =>
    i.booking && i.booking.attendance !== 'cancelled' ? [i.booking] : [],
  );
  if (photos.length === 0) return null;
  return (
    <section aria-labelledby="unmatched-title" className="space-y-3 rounded-xl bg-cream-100 p-4">
      <h2 id="unmatched-title" className="text-xl font-semibold">
        Unmatched photos ({photos.length})
      </h2>
      <p className="text-ink-700">
        No family's QR code came before these. Type the booking reference of the family each one belongs to.
      </p>
      <label className="flex w-fit flex-col gap-1 text-sm font-semibold">
        Day of the bookings
        <input
          type="date"
          value={day}
          onChange={(e) => setDay(e.target.value || today)}
          className="min-h-11 rounded-lg border border-cream-300 bg-cream-50 px-3 text-base font-normal"
        />
      </label>
      <datalist id={listId}>
        {bookings.map((b) => (
          <option key={b.id} value={b.reference}>
            {familyName(b.customer).fullname}
          </option>
        ))}
      </datalist>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {photos.map((photo, index) => (
          <AssignCard
            key={photo.id}
            photo={photo}
            label={`Unmatched photo ${index + 1}`}
            listId={listId}
            bookings={bookings}
            onAssigned={onAssigned}
          />
        ))}
      </ul>
    </section>
  );
}

type Booking = { id: string; reference: string };

function AssignCard({
  photo,
  label,
  listId,
  bookings,
  onAssigned,
}: {
  photo: StaffPhoto;
  label: string;
  listId: string;
  bookings: Booking[];
  onAssigned: (photoId: string, reference: string) => void;
}) {
  const [reference, setReference] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const assign = async () => {
    const wanted = reference.trim().toUpperCase();
    const booking = bookings.find((b) => b.reference.toUpperCase() === wanted);
    if (!booking) {
      setProblem(`No booking ${wanted || 'with that reference'} on this day here. Check the reference or the day.`);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await postJson(`/staff/photos/${photo.id}/assign`, { bookingId: booking.id });
      onAssigned(photo.id, booking.reference);
    } catch (e) {
      setProblem(e instanceof Error ? e.message : 'That did not work. Please try again.');
      setBusy(false);
    }
  };
  return (
    <li className="flex flex-col gap-2 rounded-xl bg-cream-50 p-3 ring-1 ring-cream-300">
      <img
        src={photo.previewUrl}
        alt={label}
        width={photo.width}
        height={photo.height}
        className="aspect-[3/2] w-full rounded-lg object-cover"
      />
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void assign();
        }}
      >
        <label htmlFor={inputId} className="flex flex-1 flex-col gap-1 text-sm font-semibold">
          Booking reference, {label.toLowerCase()}
          <input
            id={inputId}
            list={listId}
            value={reference}
            onChange={(e) => setReference(e.target.value)}
            autoComplete="off"
            className={
              'min-h-11 rounded-lg border border-cream-300 bg-cream-50 px-3 font-mono text-base font-normal ' +
              'uppercase'
            }
          />
        </label>
        <Button type="submit" variant="confirm" disabled={busy} aria-busy={busy}>
          {busy ? 'Assigning…' : 'Assign'}
        </Button>
      </form>
      {problem && (
        <p role="alert" className="text-sm font-semibold text-festive-800">
          {problem}
        </p>
      )}
    </li>
  );
}
