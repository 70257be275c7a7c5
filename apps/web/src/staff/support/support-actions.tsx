import { addDays, formatClockTime, localDateOf } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';
import type { Order } from '@kringle/contracts/orders';
import { REASON_MAX, REASON_MIN, type FreeSessions, type SupportBooking, type SupportRefundChoice } from '@kringle/contracts/support';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { ApiProblem } from '../../lib/api-error';
import { ErrorText, input, label } from '../form-parts';
import { cancelBooking, freeSessions, refundOrder, reschedule } from './support-api';

type Done = (message: string) => void;

const reasonProblem = (reason: string) => (reason.trim().length < REASON_MIN ? `Say why in at least ${REASON_MIN} characters.` : null);

/** Every action that changes a booking or money says why: the reason goes into the audit trail. */
function ReasonField({ value, onChange, error }: { value: string; onChange: (v: string) => void; error: string | null }) {
  const id = useId();
  return (
    <div className={label}>
      <label htmlFor={id}>Reason (kept in the audit trail)</label>
      <textarea id={id} rows={2} maxLength={REASON_MAX} required className={input} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-e` : undefined} />
      {error && <ErrorText id={`${id}-e`}>{error}</ErrorText>}
    </div>
  );
}

/** One action's form: the reason, the submit, and the API's answer read out. */
export function ActionForm({ title, submit, children, run, onDone }: { title: string; submit: string; children: ReactNode; run: (reason: string) => Promise<string>; onDone: Done }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const headingId = useId();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const problem = reasonProblem(reason);
    setError(problem);
    if (problem) return;
    setBusy(true);
    run(reason.trim())
      .then((message) => {
        setReason('');
        onDone(message);
      })
      .catch((err: unknown) => setError(err instanceof ApiProblem ? err.message : 'That did not work. Please try again.'))
      .finally(() => setBusy(false));
  };
  return (
    <form onSubmit={onSubmit} aria-labelledby={headingId} className="flex flex-col gap-3 border-t border-cream-300 pt-3" noValidate>
      <h3 id={headingId} className="font-semibold">
        {title}
      </h3>
      {children}
      <ReasonField value={reason} onChange={setReason} error={error} />
      <Button type="submit" className="self-start" disabled={busy}>
        {busy ? 'Working…' : submit}
      </Button>
    </form>
  );
}

/** Move the booking to a free session of any day: past the family's cutoff, never onto a taken one. */
export function RescheduleForm({ booking, onDone }: { booking: SupportBooking; onDone: Done }) {
  const tz = booking.location.timezone;
  const [date, setDate] = useState(() => localDateOf(new Date(booking.slot.startAt), tz));
  const [sessions, setSessions] = useState<FreeSessions['items'] | null>(null);
  const [slotId, setSlotId] = useState('');
  const dateId = useId();
  const slotIdField = useId();
  const pickDay = (day: string) => {
    setDate(day);
    setSessions(null);
    setSlotId('');
  };
  useEffect(() => {
    if (!/^\d{4}-\d\d-\d\d$/.test(date)) return;
    let live = true;
    freeSessions(booking.id, date)
      .then((r) => live && setSessions(r.items))
      .catch(() => live && setSessions([]));
    return () => {
      live = false;
    };
  }, [booking.id, date]);
  const run = async (reason: string) => {
    if (!slotId) throw new ApiProblem({ status: 400, data: { error: 'Choose a session first.', code: 'VALIDATION_FAILED' } });
    await reschedule(booking.id, slotId, reason);
    return 'Moved. The family has been e-mailed.';
  };
  return (
    <ActionForm title="Move to another session" submit="Move the booking" run={run} onDone={onDone}>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className={label}>
          <label htmlFor={dateId}>Day</label>
          <input id={dateId} type="date" className={input} value={date} min={localDateOf(new Date(), tz)} max={addDays(localDateOf(new Date(), tz), 120)} onChange={(e) => pickDay(e.target.value)} />
        </div>
        <div className={label}>
          <label htmlFor={slotIdField}>Free session</label>
          <select id={slotIdField} className={input} value={slotId} onChange={(e) => setSlotId(e.target.value)} disabled={!sessions?.length}>
            <option value="">{sessions === null ? 'Loading…' : sessions.length ? 'Choose a session' : 'No free session that day'}</option>
            {sessions?.map((s) => (
              <option key={s.id} value={s.id}>
                {formatClockTime(s.startAt, tz)} · {s.slotTypeName}
              </option>
            ))}
          </select>
        </div>
      </div>
    </ActionForm>
  );
}

/** What is left to refund on a paid order: paid less refunded and refunds on their way. */
export const leftOf = (o: Order) => Math.max(0, o.amountCents - o.refundedCents - o.refundPendingCents);

export function CancelForm({ booking, onDone }: { booking: SupportBooking; onDone: Done }) {
  const paid = booking.orders.find((o) => o.paidAt);
  const full = paid ? leftOf(paid) : 0;
  const policy = Math.min(full, booking.refundableCents);
  const [choice, setChoice] = useState<SupportRefundChoice>('policy');
  const amounts: Record<SupportRefundChoice, number> = { policy, full, none: 0 };
  const words: Record<SupportRefundChoice, string> = { policy: 'As the policy gives', full: 'Everything left', none: 'No refund' };
  return (
    <ActionForm
      title="Cancel the booking"
      submit={`Cancel and refund ${formatAud(amounts[choice])}`}
      run={async (reason) => {
        await cancelBooking(booking.id, choice, reason);
        return `Cancelled with a refund of ${formatAud(amounts[choice])}. The family has been e-mailed.`;
      }}
      onDone={onDone}
    >
      <fieldset className="flex flex-col gap-1">
        <legend className="font-semibold">Refund</legend>
        {(['policy', 'full', 'none'] as const).map((c) => (
          <label key={c} className="flex min-h-11 items-center gap-2">
            <input type="radio" name={`refund-${booking.id}`} value={c} checked={choice === c} onChange={() => setChoice(c)} className="size-5" />
            {words[c]}: {formatAud(amounts[c])}
          </label>
        ))}
      </fieldset>
    </ActionForm>
  );
}

/** Part of a paid order back to the card: never more than is left (the API refuses it too). */
export function RefundForm({ order, onDone }: { order: Order; onDone: Done }) {
  const left = leftOf(order);
  const [amount, setAmount] = useState('');
  const id = useId();
  const cents = Math.round(Number(amount) * 100);
  const run = async (reason: string) => {
    if (!Number.isFinite(cents) || cents < 1 || cents > left) throw new ApiProblem({ status: 400, data: { error: `Enter an amount from $0.01 to ${formatAud(left)}.`, code: 'VALIDATION_FAILED' } });
    await refundOrder(order.id, cents, reason);
    return `Refunding ${formatAud(cents)}. The family has been e-mailed.`;
  };
  return (
    <ActionForm title={`Refund part of the ${formatAud(order.amountCents)} payment`} submit="Refund" run={run} onDone={onDone}>
      <div className={label}>
        <label htmlFor={id}>Amount in dollars ({formatAud(left)} left to refund)</label>
        <input id={id} type="number" inputMode="decimal" min="0.01" max={(left / 100).toFixed(2)} step="0.01" className={input} value={amount} onChange={(e) => setAmount(e.target.value)} disabled={left === 0} />
      </div>
    </ActionForm>
  );
}
