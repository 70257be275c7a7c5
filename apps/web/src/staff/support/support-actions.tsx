import { addDays, formatClockTime, formatSessionTime, localDateOf } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';
import type { Order } from '@kringle/contracts/orders';
import {
  REASON_MAX,
  REASON_MIN,
  type FreeSessions,
  type SupportBooking,
  type SupportRefundChoice,
} from '@kringle/contracts/support';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { ApiProblem } from '../../lib/api-error';
import { ErrorText, input, label } from '../parts/form-parts';
import { cancelBooking, freeSessions, refundOrder, reschedule } from './support-api';

type Done = (message: string) => void;

const reasonProblem = (reason: string) =>
  reason.trim().length < REASON_MIN ? `Say why in at least ${REASON_MIN} characters.` : null;

/** Every action that changes a booking or money says why: the reason goes into the audit trail. */
function ReasonField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (v: string) => void;
  error: string | null;
}) {
  const id = useId();
  return (
    <div className={label}>
      <label htmlFor={id}>Reason (kept in the audit trail)</label>
      <textarea
        id={id}
        rows={2}
        maxLength={REASON_MAX}
        required
        className={input}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-e` : undefined}
      />
      {error && <ErrorText id={`${id}-e`}>{error}</ErrorText>}
    </div>
  );
}

/** What a confirm step says before an action that moves a family or money, and its button. */
export interface Confirmation {
  text: string;
  yes: string;
}

/**
 * One action's form: the reason, the submit, and the API's answer read out. With `confirm`, the
 * submit first says exactly what will happen (issue 53 item 8: the amount, the new time, in the
 * location's zone) and acts only on a second, named click; `confirm` may throw an ApiProblem for
 * a choice still missing. Editing the form or Escape goes back to it.
 */
export function ActionForm({
  title,
  submit,
  children,
  run,
  onDone,
  confirm,
}: {
  title: string;
  submit: string;
  children?: ReactNode;
  run: (reason: string) => Promise<string>;
  onDone: Done;
  confirm?: () => Confirmation;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Confirmation | null>(null);
  const headingId = useId();
  const confirmId = useId();
  const confirmText = useRef<HTMLParagraphElement>(null);
  const submitButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (pending) confirmText.current?.focus();
  }, [pending]);
  const act = () => {
    setBusy(true);
    run(reason.trim())
      .then((message) => {
        setReason('');
        setPending(null);
        onDone(message);
      })
      .catch((err: unknown) => {
        setPending(null);
        setError(err instanceof ApiProblem ? err.message : 'That did not work. Please try again.');
      })
      .finally(() => setBusy(false));
  };
  const back = () => {
    setPending(null);
    // The button is back once React renders the form again.
    requestAnimationFrame(() => submitButton.current?.focus());
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const problem = reasonProblem(reason);
    setError(problem);
    if (problem) return;
    if (!confirm) return act();
    try {
      setPending(confirm());
    } catch (err) {
      setError(err instanceof ApiProblem ? err.message : 'That did not work. Please try again.');
    }
  };
  return (
    <form
      onSubmit={onSubmit}
      onChange={() => setPending(null)}
      aria-labelledby={headingId}
      className="flex flex-col gap-3 border-t border-cream-300 pt-3"
      noValidate
    >
      <h3 id={headingId} className="font-semibold">
        {title}
      </h3>
      {children}
      <ReasonField
        value={reason}
        onChange={(v) => {
          setReason(v);
          setPending(null);
        }}
        error={error}
      />
      {pending ? (
        <div
          role="group"
          aria-labelledby={confirmId}
          className="flex flex-col gap-3 rounded-lg border border-gold-400 bg-gold-300/25 p-3"
          onKeyDown={(e) => {
            if (e.key === 'Escape') back();
          }}
        >
          <p id={confirmId} ref={confirmText} tabIndex={-1} className="font-semibold text-ink-900 outline-none">
            {pending.text}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button type="button" disabled={busy} onClick={act}>
              {busy ? 'Working…' : pending.yes}
            </Button>
            <Button type="button" variant="secondary" disabled={busy} onClick={back}>
              Go back
            </Button>
          </div>
        </div>
      ) : (
        <Button ref={submitButton} type="submit" className="self-start" disabled={busy}>
          {busy ? 'Working…' : submit}
        </Button>
      )}
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
  const chosen = () => {
    const session = sessions?.find((s) => s.id === slotId);
    if (!session)
      throw new ApiProblem({ status: 400, data: { error: 'Choose a session first.', code: 'VALIDATION_FAILED' } });
    return session;
  };
  const run = async (reason: string) => {
    await reschedule(booking.id, chosen().id, reason);
    return 'Moved. The family has been e-mailed.';
  };
  const confirm = (): Confirmation => {
    const to = chosen();
    return {
      text:
        `Move booking ${booking.reference} at ${booking.location.name} from ` +
        (`${formatSessionTime(booking.slot.startAt, tz)} to ${formatSessionTime(to.startAt, tz)} (` +
          `${to.slotTypeName})? The family `) +
        `is e-mailed the new time; no money changes.`,
      yes: 'Yes, move it',
    };
  };
  return (
    <ActionForm title="Move to another session" submit="Move the booking" run={run} onDone={onDone} confirm={confirm}>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className={label}>
          <label htmlFor={dateId}>Day</label>
          <input
            id={dateId}
            type="date"
            className={input}
            value={date}
            min={localDateOf(new Date(), tz)}
            max={addDays(localDateOf(new Date(), tz), 120)}
            onChange={(e) => pickDay(e.target.value)}
          />
        </div>
        <div className={label}>
          <label htmlFor={slotIdField}>Free session</label>
          <select
            id={slotIdField}
            className={input}
            value={slotId}
            onChange={(e) => setSlotId(e.target.value)}
            disabled={!sessions?.length}
          >
            <option value="">
              {sessions === null ? 'Loading…' : sessions.length ? 'Choose a session' : 'No free session that day'}
            </option>
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
  const words: Record<SupportRefundChoice, string> = {
    policy: 'As the policy gives',
    full: 'Everything left',
    none: 'No refund',
  };
  return (
    <ActionForm
      title="Cancel the booking"
      submit={`Cancel and refund ${formatAud(amounts[choice])}`}
      run={async (reason) => {
        await cancelBooking(booking.id, choice, reason);
        return `Cancelled with a refund of ${formatAud(amounts[choice])}. The family has been e-mailed.`;
      }}
      onDone={onDone}
      confirm={() => ({
        text: `Cancel booking ${booking.reference} (\
${formatSessionTime(booking.slot.startAt, booking.location.timezone)} at ${booking.location.name}) and ${
          amounts[choice] > 0 ? `refund ${formatAud(amounts[choice])} to the family's card` : 'refund nothing'
        }? The session is freed and the family is e-mailed.`,
        yes:
          amounts[choice] > 0 ? `Yes, cancel and refund ${formatAud(amounts[choice])}` : 'Yes, cancel without a refund',
      })}
    >
      <fieldset className="flex flex-col gap-1">
        <legend className="font-semibold">Refund</legend>
        {(['policy', 'full', 'none'] as const).map((c) => (
          <label key={c} className="flex min-h-11 items-center gap-2">
            <input
              type="radio"
              name={`refund-${booking.id}`}
              value={c}
              checked={choice === c}
              onChange={() => setChoice(c)}
              className="size-5"
            />
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
  const checked = () => {
    if (!Number.isFinite(cents) || cents < 1 || cents > left)
      throw new ApiProblem({
        status: 400,
        data: { error: `Enter an amount from $0.01 to ${formatAud(left)}.`, code: 'VALIDATION_FAILED' },
      });
    return cents;
  };
  const run = async (reason: string) => {
    await refundOrder(order.id, checked(), reason);
    return `Refunding ${formatAud(cents)}. The family has been e-mailed.`;
  };
  const confirm = (): Confirmation => {
    const amount = checked();
    return {
      text:
        `Refund ${formatAud(amount)} of the ${formatAud(order.amountCents)} payment to the family's card? ` +
        `${formatAud(left - amount)} will be left to refund. The booking stays as it is and the family is e-mailed.`,
      yes: `Yes, refund ${formatAud(amount)}`,
    };
  };
  return (
    <ActionForm
      title={`Refund part of the ${formatAud(order.amountCents)} payment`}
      submit="Refund"
      run={run}
      onDone={onDone}
      confirm={confirm}
    >
      <div className={label}>
        <label htmlFor={id}>Amount in dollars ({formatAud(left)} left to refund)</label>
        <input
          id={id}
          type="number"
          inputMode="decimal"
          min="0.01"
          max={(left / 100).toFixed(2)}
          step="0.01"
          className={input}
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          disabled={left === 0}
        />
      </div>
    </ActionForm>
  );
}
