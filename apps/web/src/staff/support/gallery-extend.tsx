import { formatSessionTime } from '@kringle/contracts/dates';
import type { SupportBooking } from '@kringle/contracts/support';
import { useId, useState } from 'react';
import { input, label } from '../parts/form-parts';
import { ActionForm } from './support-actions';
import { extendGallery } from './support-api';

const DAY_CHOICES = [7, 14, 30, 60] as const;

/**
 * The family's photos on the support desk (issue 39): how many, until when, and more time for
 * one gallery (manager or support, with a reason kept in the audit trail; decision 0065).
 */
export function GalleryExtendForm({
  booking,
  onDone,
}: {
  booking: SupportBooking & { galleryExpiresAt: string };
  onDone: (message: string) => void;
}) {
  const tz = booking.location.timezone;
  const [days, setDays] = useState<number>(30);
  const id = useId();
  const run = async (reason: string) => {
    const { expiresAt } = await extendGallery(booking.id, days, reason);
    return (
      `The photos are now kept until ` +
      `${formatSessionTime(expiresAt, tz)}. The family gets its reminders again before then.`
    );
  };
  return (
    <ActionForm title="Keep the photos longer" submit={`Add ${days} days`} run={run} onDone={onDone}>
      <p className="text-sm">
        {booking.photoCount} photo{booking.photoCount === 1 ? '' : 's'}, deleted{' '}
        {formatSessionTime(booking.galleryExpiresAt, tz)} unless extended. Days are added to that end (or to today, if
        later).
      </p>
      <div className={label}>
        <label htmlFor={id}>Days to add</label>
        <select id={id} className={input} value={days} onChange={(e) => setDays(Number(e.target.value))}>
          {DAY_CHOICES.map((d) => (
            <option key={d} value={d}>
              {d} days
            </option>
          ))}
        </select>
      </div>
    </ActionForm>
  );
}
