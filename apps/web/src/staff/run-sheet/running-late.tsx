import { DELAY_MESSAGE_MAX, DELAY_MINUTES, type DelayResult } from '@kringle/contracts/wallet';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { ApiProblem } from '../../lib/api-error';
import { input, label } from '../parts/form-parts';
import { postJson } from '../session/staff-client';

const STEP = 5;
const CHOICES = Array.from(
  { length: (DELAY_MINUTES.max - DELAY_MINUTES.min) / STEP + 1 },
  (_, i) => DELAY_MINUTES.min + i * STEP,
);

const told = (families: number) =>
  families === 0
    ? 'No one to tell: every family booked in the next 3 hours has checked in or was told in the last 30 minutes.'
    : `Told ${families} ${families === 1 ? 'family' : 'families'} by text and e-mail.`;

/**
 * "Santa is running late" (POST /staff/locations/{id}/delay): the minutes and an optional note,
 * then a named second tap, because it texts and e-mails every family booked in the next 3 hours
 * who has not checked in. The answer says how many were told this time (a family is told once in
 * 30 minutes, so a second press tells only those not told yet).
 */
export function RunningLate({ locationId, onClose }: { locationId: string; onClose: () => void }) {
  const [minutes, setMinutes] = useState(15);
  const [message, setMessage] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ tone: 'done' | 'problem'; text: string } | null>(null);
  const headingId = useId();
  const minutesId = useId();
  const messageId = useId();
  const confirmText = useRef<HTMLParagraphElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    if (confirming) confirmText.current?.focus();
  }, [confirming]);

  const send = async () => {
    setBusy(true);
    try {
      const note = message.trim();
      const result = await postJson<DelayResult>(`/staff/locations/${locationId}/delay`, {
        minutes,
        ...(note ? { message: note } : {}),
      });
      setAnswer({ tone: 'done', text: told(result.families) });
      setMessage('');
    } catch (err) {
      setAnswer({ tone: 'problem', text: err instanceof ApiProblem ? err.message : 'That did not work. Try again.' });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setAnswer(null);
    setConfirming(true);
  };

  return (
    <form
      onSubmit={onSubmit}
      onChange={() => setConfirming(false)}
      aria-labelledby={headingId}
      data-print="hide"
      className="flex flex-col gap-3 rounded-xl border border-gold-400 bg-cream-50 p-4"
      noValidate
    >
      <h2 id={headingId} ref={heading} tabIndex={-1} className="text-xl font-semibold outline-none">
        Santa is running late
      </h2>
      <p className="text-ink-700">
        Tells every family booked here in the next 3 hours who has not checked in: a text if they gave a mobile, and an
        e-mail, with their new expected time.
      </p>
      <div className="grid gap-3 sm:grid-cols-[12rem_1fr]">
        <div className={label}>
          <label htmlFor={minutesId}>Running late by</label>
          <select id={minutesId} value={minutes} onChange={(e) => setMinutes(Number(e.target.value))} className={input}>
            {CHOICES.map((m) => (
              <option key={m} value={m}>
                {m} minutes
              </option>
            ))}
          </select>
        </div>
        <div className={label}>
          <label htmlFor={messageId}>
            Note for families <span className="font-normal text-ink-600">(optional)</span>
          </label>
          <input
            id={messageId}
            value={message}
            maxLength={DELAY_MESSAGE_MAX}
            onChange={(e) => setMessage(e.target.value)}
            aria-describedby={`${messageId}-count`}
            autoComplete="off"
            className={input}
          />
          <span id={`${messageId}-count`} className="text-sm font-normal text-ink-600">
            {message.length} of {DELAY_MESSAGE_MAX} characters
          </span>
        </div>
      </div>
      {answer && (
        <p
          role={answer.tone === 'problem' ? 'alert' : 'status'}
          className={
            answer.tone === 'problem'
              ? 'rounded-lg bg-festive-50 px-3 py-2 font-semibold text-festive-800'
              : 'rounded-lg bg-pine-50 px-3 py-2 font-semibold text-pine-800'
          }
        >
          {answer.text}
        </p>
      )}
      {confirming ? (
        <div
          role="group"
          aria-labelledby={`${headingId}-confirm`}
          className="flex flex-col gap-3 rounded-lg border border-gold-400 bg-gold-300/25 p-3"
          onKeyDown={(e) => {
            if (e.key === 'Escape') setConfirming(false);
          }}
        >
          <p
            id={`${headingId}-confirm`}
            ref={confirmText}
            tabIndex={-1}
            className="font-semibold text-ink-900 outline-none"
          >
            Text and e-mail the families booked in the next 3 hours that Santa is running about {minutes} minutes late?
          </p>
          <div className="flex flex-wrap gap-2">
            <Button type="button" disabled={busy} aria-busy={busy} onClick={() => void send()}>
              {busy ? 'Telling families…' : 'Yes, tell them'}
            </Button>
            <Button type="button" variant="secondary" disabled={busy} onClick={() => setConfirming(false)}>
              Go back
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button type="submit">Tell families</Button>
          <Button type="button" variant="secondary" onClick={onClose}>
            Close
          </Button>
        </div>
      )}
    </form>
  );
}
