import { ACTOR_KIND_LABELS, type AuditEntry } from '@kringle/contracts/audit';
import { AUDIT_ACTION_LABELS } from '@kringle/contracts/audit-actions';
import { describeChange } from '@kringle/contracts/audit-words';
import { formatSessionTime } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';
import type { SupportBooking } from '@kringle/contracts/support';
import { useCallback, useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { ApiProblem } from '../../lib/api-error';
import { AttendanceTag, FamilyDetails, familyName } from '../parts/booking-card';
import { CancelForm, RefundForm, RescheduleForm } from './support-actions';
import { resendConfirmation, supportBooking } from './support-api';
import { DetailsForm } from './support-details-form';
import { GalleryExtendForm } from './gallery-extend';

const section = 'flex flex-col gap-2 rounded-xl border border-cream-300 bg-cream-50 p-4';
const h2 = 'text-lg font-semibold';

/** What an audit entry changed, in plain words (contracts' audit-words.ts, shared with the CSV). */
export function changeOf(e: AuditEntry, timezone: string): string {
  return describeChange(e, timezone).join(' · ');
}

/**
 * The trail as a list: the action's label, when (the location's local time), who, what it is
 * about (booking reference and family, when the list mixes bookings) and what changed.
 */
export function AuditList({
  entries,
  timezone,
  showSubject = false,
}: {
  entries: AuditEntry[];
  timezone: string;
  showSubject?: boolean;
}) {
  if (entries.length === 0) return <p className="text-sm text-ink-700">Nothing recorded yet.</p>;
  return (
    <ol className="flex flex-col gap-2 text-sm">
      {entries.map((e) => {
        const change = changeOf(e, timezone);
        const subject = showSubject
          ? [
              e.about?.reference,
              e.about?.family ? e.about.family.name || e.about.family.email : null,
              e.about?.location?.name,
            ]
              .filter(Boolean)
              .join(' · ')
          : '';
        return (
          <li key={e.id} className="border-l-4 border-pine-700 pl-3">
            <p>
              <span className="font-semibold">{AUDIT_ACTION_LABELS[e.action] ?? e.action}</span> ·{' '}
              {formatSessionTime(e.at, e.about?.location?.timezone ?? timezone)}
            </p>
            {subject && <p className="font-mono text-xs text-ink-700 break-words">{subject}</p>}
            <p className="text-ink-700 break-words">
              By {ACTOR_KIND_LABELS[e.actor.kind]}
              {e.actor.email ? ` (${e.actor.email})` : ''}
            </p>
            {change && <p className="break-words">{change}</p>}
            {e.reason && <p>Reason: {e.reason}</p>}
          </li>
        );
      })}
    </ol>
  );
}

/** A booking as the support desk sees it: the family, payments, refunds, e-mails, the trail, and the actions. */
export function SupportBookingPanel({ bookingId }: { bookingId: string }) {
  const [booking, setBooking] = useState<SupportBooking | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  /** When the page was opened: a session started since then is refused by the API with its message. */
  const [openedAt] = useState(() => Date.now());

  const load = useCallback(() => {
    supportBooking(bookingId)
      .then((b) => {
        setBooking(b);
        setProblem(null);
      })
      .catch((err: unknown) =>
        setProblem(err instanceof ApiProblem ? err.message : 'This booking could not be loaded.'),
      );
  }, [bookingId]);
  useEffect(load, [load]);

  const done = (message: string) => {
    setNotice(message);
    load();
  };

  if (problem) return <p role="alert">{problem}</p>;
  if (!booking) return <p className="text-ink-700">Loading…</p>;
  const tz = booking.location.timezone;
  const paid = booking.orders.filter((o) => o.paidAt);
  return (
    <article aria-labelledby="support-booking-h" className="flex flex-col gap-4">
      <header className="flex flex-col gap-1">
        <h1 id="support-booking-h" className="font-display text-2xl font-semibold">
          {familyName(booking.customer).fullname || booking.customer.email} ·{' '}
          <span className="font-mono">{booking.reference}</span>
        </h1>
        <p className="flex flex-wrap items-center gap-2">
          <span>
            {booking.slotType.name}, {formatSessionTime(booking.slot.startAt, tz)}, {booking.location.name}
          </span>
          <AttendanceTag attendance={booking.attendance} />
        </p>
        <p className="text-sm text-ink-700 break-all">{booking.customer.email}</p>
      </header>
      <p role="status" className="font-semibold text-pine-800">
        {notice}
      </p>
      <div className="grid gap-4 lg:grid-cols-2">
        <section className={section} aria-labelledby="who-h">
          <h2 id="who-h" className={h2}>
            Who is coming
          </h2>
          <FamilyDetails booking={booking} timezone={tz} />
        </section>
        <section className={section} aria-labelledby="pay-h">
          <h2 id="pay-h" className={h2}>
            Payments and refunds
          </h2>
          <ul className="text-sm">
            {booking.orders.map((o) => (
              <li key={o.id}>
                {formatAud(o.amountCents)} {o.paidAt ? `paid ${formatSessionTime(o.paidAt, tz)}` : `(${o.status})`}
                {o.refundedCents + o.refundPendingCents > 0
                  ? ` · ${formatAud(o.refundedCents + o.refundPendingCents)} refunded`
                  : ''}
              </li>
            ))}
          </ul>
          {booking.disputes.map((d) => (
            <p key={d.id} className="text-sm font-semibold text-festive-800">
              Payment of {formatAud(d.amountCents)} disputed with the bank ({d.status.replace(/_/g, ' ')}):{' '}
              <a className="underline" href="/staff/support/disputes">
                see Disputes
              </a>
            </p>
          ))}
          {booking.refunds.length > 0 && (
            <ul className="text-sm">
              {booking.refunds.map((r) => (
                <li key={r.id}>
                  Refund {formatAud(r.amountCents)} · {r.status} · {formatSessionTime(r.createdAt, tz)}
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className={section} aria-labelledby="mail-h">
          <h2 id="mail-h" className={h2}>
            E-mails sent
          </h2>
          {booking.emails.length === 0 ? (
            <p className="text-sm">None yet.</p>
          ) : (
            <ul className="text-sm">
              {booking.emails.map((m, i) => (
                <li key={`${m.createdAt}-${i}`}>
                  {m.subject} · {m.status} · {formatSessionTime(m.sentAt ?? m.createdAt, tz)}
                </li>
              ))}
            </ul>
          )}
          {booking.status === 'completed' && (
            <Button
              variant="secondary"
              className="self-start"
              onClick={() =>
                void resendConfirmation(booking.id).then(
                  () => done('The confirmation is on its way.'),
                  (err: unknown) => setNotice(err instanceof ApiProblem ? err.message : 'Could not resend.'),
                )
              }
            >
              Resend confirmation
            </Button>
          )}
        </section>
        <section className={section} aria-labelledby="audit-h">
          <h2 id="audit-h" className={h2}>
            Audit trail
          </h2>
          <AuditList entries={booking.audit} timezone={tz} />
        </section>
      </div>
      {booking.status !== 'cancelled' && (
        <section className={section} aria-labelledby="act-h">
          <h2 id="act-h" className={h2}>
            Act for the family
          </h2>
          {/* Keyed by the session: after a move the form starts again with that day's sessions as they are now. */}
          {booking.status === 'completed' && <RescheduleForm key={booking.slot.id} booking={booking} onDone={done} />}
          {Date.parse(booking.slot.startAt) > openedAt && (
            <DetailsForm key={`details-${booking.id}`} booking={booking} onDone={done} />
          )}
          <CancelForm booking={booking} onDone={done} />
        </section>
      )}
      {booking.galleryExpiresAt && (
        <section className={section} aria-labelledby="photos-h">
          <h2 id="photos-h" className={h2}>
            Photos
          </h2>
          <GalleryExtendForm booking={{ ...booking, galleryExpiresAt: booking.galleryExpiresAt }} onDone={done} />
        </section>
      )}
      {paid.map((o) => (
        <section key={o.id} className={section} aria-label={`Refund part of the ${formatAud(o.amountCents)} payment`}>
          <RefundForm order={o} onDone={done} />
        </section>
      ))}
    </article>
  );
}
