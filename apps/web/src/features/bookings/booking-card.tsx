import { clsx } from 'clsx';
import { useId, useState, type ReactNode, type SVGProps } from 'react';
import type { Booking } from '@kringle/contracts/bookings';
import { formatClockTime, formatSessionTime, localDateOf, zoneAbbreviation } from '@kringle/contracts/dates';
import { refundDeadline, rescheduleDeadline, type PolicyRules } from '@kringle/contracts/policy';
import { formatAud, gstOf } from '@kringle/contracts/money';
import { Button } from '../../components/ui/button';
import { CalendarIcon, ClockIcon } from '../../components/ui/icons';
import { isPhotoOrder, type BookingOrder, type BookingTab } from './api';
import { CheckInQr } from '../../components/whos-coming/check-in-qr';
import { DetailsSummary } from '../../components/whos-coming/details-summary';
import { usePassed } from '../../lib/use-passed';
import { StatusTag } from './status-tag';
import { DelayNotice } from './delay-notice';

export type CardAction = 'reschedule' | 'cancel' | 'continue' | 'calendar' | 'payment-receipt' | 'refund-receipt';

export interface BookingCardProps {
  booking: Booking;
  tab: BookingTab;
  /** The booking's orders once loaded: they say whether a payment or refund receipt exists. */
  orders?: BookingOrder[];
  /** The action in flight on this card, if any (its button shows it and the others wait). */
  busy?: CardAction | null;
  onAction: (action: CardAction, booking: Booking) => void;
  /** The "Edit who's coming" control, when the list offers it (it needs the store; the card does not). */
  editDetails?: ReactNode;
  /** The policy in force (GET /common/policy): the deadlines and the moves left are stated from it once loaded. */
  policy?: PolicyRules;
  /** Why the brand closed its session, and the replacement offered (it needs the store; the card does not). */
  closure?: ReactNode;
  /** The "Photos" control, when the booking may have photos (it needs the store; the card does not). */
  photos?: ReactNode;
  /**
   * "Add to Apple Wallet" and "Save to Google Wallet", for a paid booking (they need the store; the card does not):
   * shown with the check-in code, which they carry.
   */
  wallet?: ReactNode;
}

/** Which actions this booking offers, from the API's policy flags and its orders. */
/** The hold's end, for a booking still waiting to be paid. */
const unpaidHold = (b: Booking) =>
  b.status === 'payment_pending' || b.status === 'payment_failed' ? b.holdExpiresAt : null;

function cardActions(booking: Booking, tab: BookingTab, orders: BookingOrder[] = []): CardAction[] {
  const unpaid = booking.status === 'payment_pending' || booking.status === 'payment_failed';
  const actions: CardAction[] = [];
  if (unpaid && tab === 'upcoming') actions.push('continue');
  if (booking.canReschedule) actions.push('reschedule');
  if (booking.status === 'completed' && tab === 'upcoming') actions.push('calendar');
  if (orders.some((o) => o.paidAt !== null || o.paymentStatus !== null)) actions.push('payment-receipt');
  if (orders.some((o) => o.refundedCents > 0 || o.paymentStatus === 'refunded')) actions.push('refund-receipt');
  if (booking.canCancel) actions.push('cancel');
  return actions;
}

// A page with a folded corner, for the receipt downloads (drawn like the shared icon set).
const DocumentIcon = (p: SVGProps<SVGSVGElement>) => (
  <svg
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={1.8}
    strokeLinecap="round"
    strokeLinejoin="round"
    {...p}
  >
    <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
    <path d="M14 3v5h5M9 13h6M9 17h6" />
  </svg>
);

const LABELS: Record<CardAction, { idle: string; busy: string }> = {
  continue: { idle: 'Continue payment', busy: 'Opening payment…' },
  reschedule: { idle: 'Reschedule', busy: 'Opening…' },
  calendar: { idle: 'Add to calendar', busy: 'Downloading…' },
  'payment-receipt': { idle: 'Tax invoice', busy: 'Downloading…' },
  'refund-receipt': { idle: 'Refund receipt', busy: 'Downloading…' },
  cancel: { idle: 'Cancel booking', busy: 'Cancelling…' },
};

/** How long an unpaid booking's session is still held, in the location's time. */
function holdWords(b: Booking, ended: boolean): string {
  if (ended)
    return 'The hold on this session has ended, so this booking will be cancelled and the session goes back on sale.';
  if (!b.holdExpiresAt) return 'This session is only held for a short while. Finish paying to confirm it.';
  const tz = b.location.timezone;
  return (
    `This session is held for you until ` +
    `${formatClockTime(b.holdExpiresAt, tz)} ${zoneAbbreviation(new Date(b.holdExpiresAt), tz)}. Finish paying to ` +
    `confirm it.`
  );
}

// One clear primary action per card (paying); files to keep sit quietly in their own row.
const PRIMARY: CardAction[] = ['continue'];
const MANAGE: CardAction[] = ['continue', 'reschedule', 'cancel'];

export function BookingCard({
  booking,
  tab,
  orders: allOrders,
  busy = null,
  onAction,
  editDetails,
  policy,
  closure,
  photos,
  wallet,
}: BookingCardProps) {
  const headingId = useId();
  // The card's money and receipts are the booking's own order's; a photo order's are in the gallery (decision 0070).
  const orders = allOrders?.filter((o) => !isPhotoOrder(o));
  const actions = cardActions(booking, tab, orders);
  const when = formatSessionTime(booking.slot.startAt, booking.location.timezone);
  const unpaid = booking.status === 'payment_pending' || booking.status === 'payment_failed';
  const holdEnded = usePassed(unpaidHold(booking));
  // The check-in QR code is one tap away, on the day too (issue 53 item 13: drawn at once it made
  // the day's card 870 px tall on a phone). On the day that tap is the card's first action.
  const hasCode = Boolean(booking.checkInCode) && tab === 'upcoming';
  const today = hasCode && isToday(booking);
  const [qrShown, setQrShown] = useState(false);
  const qrButton = (prominent: boolean) => (
    <Button
      variant={prominent ? 'confirm' : 'ghost'}
      className={prominent ? 'min-w-0 whitespace-nowrap px-4!' : 'px-3! text-sm! text-ink-900'}
      aria-expanded={qrShown}
      // Beside Photos on a phone the prominent one says less; its name says all (and holds its words).
      aria-label={prominent ? `${qrShown ? 'Hide' : 'Show'} check-in code` : undefined}
      onClick={() => setQrShown(!qrShown)}
    >
      <QrIcon aria-hidden="true" className={clsx('size-4 shrink-0', !prominent && 'text-festive-700')} />
      {prominent ? 'Check-in code' : qrShown ? 'Hide check-in code' : 'Show check-in code'}
    </Button>
  );
  // Not told yet, with the button to tell it: the button's words say it (one line on a phone).
  const askOnly = booking.details === null && tab === 'upcoming' && Boolean(editDetails);
  // The wallets take the same code: offered with it, so the card stays as compact as item 13 made it.
  const qr = qrShown && booking.checkInCode && (
    <>
      <CheckInQr code={booking.checkInCode} reference={booking.reference} />
      {wallet}
    </>
  );
  // Paying after the hold has ended is refused: the card says why instead of offering it.
  const manage = actions.filter((a) => MANAGE.includes(a) && !(a === 'continue' && holdEnded));
  const files = actions.filter((a) => !MANAGE.includes(a));
  const refundedCents = (orders ?? []).reduce((sum, o) => sum + o.refundedCents, 0);
  const refundPendingCents = (orders ?? []).reduce((sum, o) => sum + o.refundPendingCents, 0);
  // Known only once the orders answer: until then the card says nothing about money back.
  const paidNoRefund =
    booking.status === 'cancelled' &&
    orders !== undefined &&
    orders.some((o) => o.paidAt !== null) &&
    refundedCents === 0 &&
    refundPendingCents === 0;
  const buttonProps = (action: CardAction) => ({
    disabled: busy !== null,
    'aria-busy': busy === action,
    onClick: () => onAction(action, booking),
    children: busy === action ? LABELS[action].busy : LABELS[action].idle,
  });

  return (
    <article
      aria-labelledby={headingId}
      data-testid="booking-card"
      data-reference={booking.reference}
      className="flex flex-col gap-2.5 rounded-2xl border border-cream-300 bg-cream-50 p-4 shadow-sm sm:gap-4 sm:p-5"
    >
      <div className="flex flex-wrap items-center gap-2">
        <StatusTag status={booking.status} />
        {booking.source === 'walkin' && (
          <span
            className={
              'inline-flex items-center rounded-full border border-gold-400 bg-gold-300/30 px-3 py-1 ' +
              'text-sm font-semibold text-ink-900'
            }
          >
            Walk-in booking
          </span>
        )}
        <span className="ml-auto text-sm text-ink-600">
          Ref <span className="font-mono font-semibold tracking-wide text-ink-900">{booking.reference}</span>
        </span>
      </div>

      <div className="flex flex-col gap-1">
        <h3 id={headingId} className="flex items-start gap-2 text-lg font-semibold text-ink-900 sm:text-xl">
          <CalendarIcon aria-hidden="true" className="mt-1 size-5 shrink-0 text-festive-700" />
          <time dateTime={booking.slot.startAt}>{when}</time>
        </h3>
        <p className="font-semibold text-ink-900">
          {booking.slotType.name} <span className="font-normal text-ink-700">at</span> {booking.location.name}
          <span className="block text-sm font-normal text-ink-700">{booking.location.address}</span>
        </p>
      </div>
      {/* On the day: the code and the photos, first (issue 53 item 13). */}
      {today && (
        <div className="flex gap-2 max-sm:[&>*:first-child]:flex-1">
          {qrButton(true)}
          {photos}
        </div>
      )}
      {today && qr}
      {booking.delay && tab === 'upcoming' && booking.status === 'completed' && (
        <DelayNotice booking={booking} delay={booking.delay} />
      )}
      {closure}

      <Bought booking={booking} />
      {/* Named for its booking: with two or more cards, landmarks with one name say nothing apart. */}
      <section
        aria-label={`Who's coming, ${booking.reference}`}
        className={clsx(
          'flex items-center justify-between gap-2',
          !askOnly && 'sm:rounded-xl sm:border sm:border-cream-200 sm:px-3 sm:py-2',
        )}
      >
        {!askOnly && <DetailsSummary details={booking.details} inline />}
        {tab === 'upcoming' && editDetails}
      </section>
      {!today && qr}
      {!today && photos}

      {unpaid && tab === 'upcoming' && (
        <p className="flex items-start gap-2 rounded-xl bg-[#fff3e2] p-3 text-sm text-[#7a4100]">
          <ClockIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>
            {booking.status === 'payment_failed'
              ? 'Your last payment did not go through, and you have not been charged. '
              : ''}
            {holdWords(booking, holdEnded)}
          </span>
        </p>
      )}
      {policy &&
        tab === 'upcoming' &&
        booking.status === 'completed' &&
        (booking.canReschedule || booking.refundableCents > 0) && (
          // The API's flags say whether each still applies; the dates come from the policy numbers, in the location's
          // zone.
          <ul className="flex flex-col gap-0.5 text-sm text-ink-700" data-testid="booking-deadlines">
            {booking.canReschedule && (
              <li>
                Free reschedule until{' '}
                {deadlineWords(rescheduleDeadline(new Date(booking.slot.startAt), policy), booking)}
              </li>
            )}
            {booking.refundableCents > 0 && (
              <li>
                Full refund until {deadlineWords(refundDeadline(new Date(booking.slot.startAt), policy), booking)}
              </li>
            )}
          </ul>
        )}
      {policy && booking.rescheduleCount > 0 && booking.status !== 'cancelled' && (
        <p className="text-sm text-ink-600">
          {booking.rescheduleCount} of {policy.rescheduleLimit} free moves used.
        </p>
      )}

      {refundedCents > 0 && (
        <p className="rounded-xl bg-pine-50 p-3 text-sm font-semibold text-pine-800">
          Refunded {formatAud(refundedCents)} to the card you paid with.
        </p>
      )}
      {refundPendingCents > 0 && (
        <p className="rounded-xl bg-pine-50 p-3 text-sm text-pine-800">
          <span className="font-semibold">A refund of {formatAud(refundPendingCents)} is on its way</span> to the card
          you paid with. Its receipt follows once it goes through.
        </p>
      )}
      {paidNoRefund && (
        <p className="rounded-xl bg-cream-100 p-3 text-sm text-ink-700">
          No refund: this booking was cancelled after the refund cut-off.
        </p>
      )}

      {manage.length > 0 && (
        <div className="flex flex-wrap gap-2">
          {manage.map((action) => (
            <Button
              key={action}
              variant={PRIMARY.includes(action) ? 'primary' : 'secondary'}
              className={clsx(
                'flex-1 whitespace-nowrap px-4! sm:flex-none',
                action === 'continue' && 'basis-full sm:basis-auto',
                action === 'cancel' && 'text-festive-800!',
              )}
              {...buttonProps(action)}
            />
          ))}
        </div>
      )}
      {(files.length > 0 || (hasCode && !today)) && (
        <div className="flex flex-wrap gap-x-1 gap-y-0 border-t border-cream-200 pt-1">
          {/* Before the day, the code is one quiet tap away, beside the files (it was a row of its own). */}
          {hasCode && !today && qrButton(false)}
          {files.map((action) => {
            const Icon = action === 'calendar' ? CalendarIcon : DocumentIcon;
            const { children, ...props } = buttonProps(action);
            return (
              <Button key={action} variant="ghost" className="px-3! text-sm! text-ink-900" {...props}>
                <Icon aria-hidden="true" className="size-4 shrink-0 text-festive-700" />
                {children}
              </Button>
            );
          })}
        </div>
      )}
    </article>
  );
}

/**
 * A deadline in the location's time, its zone said only when it is not the session's (the
 * heading names that): one line each on a phone (issue 53 item 13).
 */
function deadlineWords(at: Date, b: Booking): string {
  const words = formatSessionTime(at, b.location.timezone);
  const zone = zoneAbbreviation(new Date(b.slot.startAt), b.location.timezone);
  return words.endsWith(` ${zone}`) ? words.slice(0, -zone.length - 1) : words;
}

/** True when the session is on the location's today: the day the family stands at the set. */
export const isToday = (b: Booking, now = new Date()) =>
  localDateOf(new Date(b.slot.startAt), b.location.timezone) === localDateOf(now, b.location.timezone);

/**
 * What was bought and the total: one line for a single package (most bookings), a list otherwise, with a
 * donation as its own line. The GST is the goods' alone: a donation has none.
 */
function Bought({ booking }: { booking: Booking }) {
  const gst = (
    <span className="text-sm font-normal text-ink-600">
      (incl. {formatAud(gstOf(booking.amountCents - booking.donationCents))} GST)
    </span>
  );
  const total = (
    <span className="shrink-0 text-lg font-semibold tabular-nums text-ink-900" data-testid="booking-total">
      {formatAud(booking.amountCents)}
    </span>
  );
  const [only] = booking.items;
  if (booking.items.length === 1 && only && booking.donationCents === 0) {
    return (
      <div className="flex items-baseline justify-between gap-3 rounded-xl bg-cream-100 px-3 py-2">
        <span className="min-w-0 text-ink-900">
          {only.quantity} × {only.name} {gst}
        </span>
        {total}
      </div>
    );
  }
  return (
    <div className="rounded-xl bg-cream-100 px-3 py-2">
      <ul className="flex flex-col">
        {booking.items.map((item) => (
          <li key={item.id} className="flex justify-between gap-3 py-0.5 text-ink-900">
            <span className="min-w-0">
              {item.quantity} × {item.name}
            </span>
            <span className="shrink-0 tabular-nums">{formatAud(item.totalCents)}</span>
          </li>
        ))}
        {booking.donationCents > 0 && (
          <li className="flex justify-between gap-3 py-0.5 text-ink-900" data-testid="booking-donation">
            <span className="min-w-0">Donation (no GST)</span>
            <span className="shrink-0 tabular-nums">{formatAud(booking.donationCents)}</span>
          </li>
        )}
      </ul>
      <p className="mt-1 flex items-baseline justify-between gap-3 border-t border-cream-300 pt-1">
        <span className="font-semibold text-ink-900">Total {gst}</span>
        {total}
      </p>
    </div>
  );
}

// A small QR-code mark for "Show check-in code" (drawn like the shared icon set).
const QrIcon = (p: SVGProps<SVGSVGElement>) => (
  <svg
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={1.8}
    strokeLinecap="round"
    strokeLinejoin="round"
    {...p}
  >
    <rect x="3" y="3" width="7" height="7" rx="1" />
    <rect x="14" y="3" width="7" height="7" rx="1" />
    <rect x="3" y="14" width="7" height="7" rx="1" />
    <path d="M14 14h3v3M21 14v.01M14 21h.01M17 21h4v-4" />
  </svg>
);
