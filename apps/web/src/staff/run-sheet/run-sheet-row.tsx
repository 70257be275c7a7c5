import { formatClockTime } from '@kringle/contracts/dates';
import { PAID_WITH_LABELS, SLOT_STATE_LABELS, type RunSheet, type StaffBooking } from '@kringle/contracts/staff';
import { clsx } from 'clsx';
import { Button, buttonClasses } from '../../components/ui/button';
import { AttendanceTag, canUndoCheckIn, FamilyDetails, familyName } from '../parts/booking-card';
import type { PhotoTarget } from '../photos/photos-page';

export type RunSheetItem = RunSheet['items'][number];

export interface RowActions {
  checkIn: (b: StaffBooking) => Promise<void>;
  noShow: (b: StaffBooking) => Promise<void>;
  undo: (b: StaffBooking) => Promise<void>;
  receipt: (b: StaffBooking) => Promise<void>;
}

export interface SheetRowProps {
  item: RunSheetItem;
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

export function SheetRow({
  item,
  timezone,
  isToday,
  actions,
  onSellWalkIn,
  onUploadPhotos,
  problem,
  now,
}: SheetRowProps) {
  const marker = now ? { 'data-now': '', tabIndex: -1 } : {};
  const { slot, booking } = item;
  const time = `${formatClockTime(slot.startAt, timezone)} – ${formatClockTime(slot.endAt, timezone)}`;
  const started = new Date(slot.startAt) <= new Date();
  if (slot.kind === 'break') {
    return (
      <li
        {...marker}
        className="flex scroll-mt-2 items-center gap-4 rounded-xl bg-cream-200 px-4 py-2 text-ink-700"
        data-print="block"
      >
        <span className="shrink-0 font-semibold whitespace-nowrap md:w-48">{time}</span>
        <span>Break</span>
      </li>
    );
  }
  return (
    <li
      {...marker}
      className={clsx(
        'flex scroll-mt-2 flex-col gap-3 rounded-xl bg-cream-50 px-4 ring-1 ring-cream-300 md:flex-row',
        booking ? 'py-3' : 'py-1.5',
        booking?.attendance === 'cancelled' && 'opacity-80',
      )}
      data-print="block"
    >
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
            {booking.source === 'walkin' && (
              <span className="rounded-full bg-cream-200 px-3 py-0.5 text-sm font-semibold">
                Walk-in{booking.paidWith ? `, ${PAID_WITH_LABELS[booking.paidWith]}` : ''}
              </span>
            )}
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
          <Button
            variant="confirm"
            onClick={() => void actions.checkIn(booking)}
            aria-label={`Check in ${familyName(booking.customer).lastname} family, ${booking.reference}`}
          >
            Check in
          </Button>
        )}
        {booking && booking.attendance === 'confirmed' && started && (
          <Button
            variant="secondary"
            onClick={() => void actions.noShow(booking)}
            aria-label={`Mark ${booking.reference} no-show`}
          >
            No-show
          </Button>
        )}
        {booking && (canUndoCheckIn(booking) || booking.attendance === 'no_show') && (
          <Button
            variant="secondary"
            onClick={() => void actions.undo(booking)}
            aria-label={`Undo for ${booking.reference}`}
          >
            Undo
          </Button>
        )}
        {booking && booking.source === 'walkin' && booking.attendance !== 'cancelled' && (
          <Button
            variant="secondary"
            onClick={() => void actions.receipt(booking)}
            aria-label={`Tax invoice for ${booking.reference}`}
          >
            Tax invoice
          </Button>
        )}
        {booking && onUploadPhotos && booking.attendance !== 'cancelled' && (
          <Button
            variant="secondary"
            onClick={() =>
              onUploadPhotos({
                id: booking.id,
                reference: booking.reference,
                name: familyName(booking.customer).fullname,
              })
            }
            aria-label={`Upload photos for ${booking.reference}`}
          >
            Upload photos
          </Button>
        )}
        {!booking && slot.state === 'free' && isToday && (
          <button
            type="button"
            className={buttonClasses('secondary')}
            onClick={() => onSellWalkIn(slot.id)}
            aria-label={`Sell walk-in, ${formatClockTime(slot.startAt, timezone)}`}
          >
            Sell walk-in
          </button>
        )}
      </div>
    </li>
  );
}
