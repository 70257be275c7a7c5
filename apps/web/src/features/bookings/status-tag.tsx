import { clsx } from 'clsx';
import { BOOKING_STATUS_TAGS, type BookingStatus } from '@kringle/contracts/statuses';

type TagColour = (typeof BOOKING_STATUS_TAGS)[BookingStatus]['colour'];

/**
 * Spec §4 colour names as tinted backgrounds. Each text colour is dark enough for WCAG AA on
 * its own tint (all above 6:1), so the label reads without relying on colour alone.
 */
const TINTS: Record<TagColour, string> = {
  orange: 'border-[#f5c58a] bg-[#fff3e2] text-[#7a4100]',
  green: 'border-[#a9d3b9] bg-pine-50 text-pine-800',
  red: 'border-festive-100 bg-festive-50 text-festive-800',
  volcano: 'border-[#f6b99d] bg-[#fff0e8] text-[#8f2a07]',
};

export function StatusTag({ status }: { status: BookingStatus }) {
  const { label, colour } = BOOKING_STATUS_TAGS[status];
  return (
    <span
      data-colour={colour}
      className={clsx(
        'inline-flex shrink-0 items-center rounded-full border px-3 py-1 text-sm font-semibold',
        TINTS[colour],
      )}
    >
      {label}
    </span>
  );
}
