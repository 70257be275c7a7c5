import { formatSessionTime } from '@kringle/contracts/dates';
import {
  DISPUTE_EVIDENCE_FIELDS,
  DISPUTE_EVIDENCE_LABELS,
  DISPUTE_OPEN_STATUSES,
  STATEMENT_MAX,
  STATEMENT_MIN,
  type Dispute,
  type DisputeStatus,
} from '@kringle/contracts/disputes';
import { formatAud } from '@kringle/contracts/money';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { ApiProblem } from '../../lib/api-error';
import { ErrorText, input, label } from '../parts/form-parts';
import { listDisputes, submitDispute } from './support-api';

const STATUS_TEXT: Record<DisputeStatus, string> = {
  warning_needs_response: 'Inquiry: answer it',
  needs_response: 'Needs your evidence',
  warning_under_review: 'Inquiry under review',
  under_review: 'Submitted: with the bank',
  warning_closed: 'Inquiry closed',
  won: 'Won: the payment stands',
  lost: 'Lost: the money went back to the cardholder',
  prevented: 'Prevented',
};
const REASON_TEXT: Record<string, string> = {
  fraudulent: 'The cardholder says they did not make this payment',
  product_not_received: 'The cardholder says they did not get what they paid for',
  duplicate: 'The cardholder says they were charged twice',
  subscription_canceled: 'The cardholder says they cancelled',
  product_unacceptable: 'The cardholder says it was not as described',
  credit_not_processed: 'The cardholder says a refund was promised and not made',
};
/**
 * Stripe takes these as uploaded files: the receipt goes as the tax invoice's PDF once uploaded, the
 * e-mails (and a receipt not uploaded) as text after the statement (decision 0105).
 */
const howSent = (d: Dispute, field: string) =>
  field === 'receipt'
    ? d.receiptFileId
      ? ' (sent as the tax invoice, a PDF)'
      : ' (sent after the statement)'
    : field === 'customer_communication'
      ? ' (sent after the statement)'
      : '';

const isOpen = (d: Dispute) => d.submittedAt === null && DISPUTE_OPEN_STATUSES.includes(d.status);

/**
 * Support's disputes (issue 56): each chargeback with the evidence Kringle drafted from what it
 * holds, exactly as it will be sent, and the statement support submits it with.
 */
export function DisputesPage({ timezone }: { timezone: string }) {
  const [items, setItems] = useState<Dispute[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const headingId = useId();

  useEffect(() => {
    listDisputes()
      .then((list) => setItems(list.items))
      .catch((err: unknown) => setProblem(err instanceof ApiProblem ? err.message : 'Disputes could not be loaded.'));
  }, []);
  const replace = (d: Dispute) => setItems((old) => old?.map((o) => (o.id === d.id ? d : o)) ?? null);
  const open = items?.filter(isOpen).length ?? 0;

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <h1 id={headingId} className="font-display text-2xl font-semibold">
        Disputed payments
      </h1>
      <p role="status" className="text-sm text-ink-700">
        {problem ??
          (items
            ? items.length === 0
              ? 'No payment has been disputed.'
              : `${items.length} ${items.length === 1 ? 'dispute' : 'disputes'}, ${open} waiting for evidence`
            : 'Loading…')}
      </p>
      {items?.map((d) => (
        <DisputeCard key={d.id} dispute={d} timezone={timezone} onChange={replace} />
      ))}
    </section>
  );
}

function DisputeCard({
  dispute: d,
  timezone,
  onChange,
}: {
  dispute: Dispute;
  timezone: string;
  onChange: (d: Dispute) => void;
}) {
  const id = useId();
  const when = (iso: string) => formatSessionTime(iso, timezone);
  return (
    <article
      aria-labelledby={`${id}-h`}
      className="flex flex-col gap-3 rounded-xl border border-cream-300 bg-cream-50 p-4"
      data-dispute={d.id}
    >
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${id}-h`} className="text-lg font-semibold">
          Booking{' '}
          <a className="underline" href={`/staff/support?booking=${d.bookingId}`}>
            {d.bookingReference}
          </a>{' '}
          · {formatAud(d.amountCents)}
        </h2>
        <p className="rounded-full bg-cream-200 px-3 py-1 text-sm font-semibold" data-status={d.status}>
          {STATUS_TEXT[d.status]}
        </p>
      </header>
      <p className="text-sm">
        {REASON_TEXT[d.reason] ?? `Reason: ${d.reason.replace(/_/g, ' ')}`}. Opened {when(d.createdAt)}
        {d.dueBy && isOpen(d) ? `; evidence due by ${when(d.dueBy)}` : ''}.
      </p>
      {d.submittedAt && (
        <p className="text-sm">
          Submitted {when(d.submittedAt)}
          {d.submittedBy ? ` by ${d.submittedBy}` : ''}
          {d.closedAt ? `; closed ${when(d.closedAt)}` : ''}.
        </p>
      )}
      {d.submitReason && (
        <blockquote className="border-l-4 border-cream-300 pl-3 text-sm break-words whitespace-pre-wrap">
          {d.submitReason}
        </blockquote>
      )}
      <details open={isOpen(d)} className="text-sm">
        <summary className="cursor-pointer font-semibold">
          {d.submittedAt ? 'The evidence sent' : 'The evidence that will be sent'}
          {d.evidenceStagedAt && !d.submittedAt ? ' (saved on Stripe as a draft)' : ''}
        </summary>
        {d.evidence ? (
          <dl className="mt-2 flex flex-col gap-2">
            {DISPUTE_EVIDENCE_FIELDS.filter((f) => d.evidence?.[f]).map((f) => (
              <div key={f}>
                <dt className="font-semibold">
                  {DISPUTE_EVIDENCE_LABELS[f]}
                  {howSent(d, f) && <span className="font-normal text-ink-700">{howSent(d, f)}</span>}
                </dt>
                <dd className="break-words whitespace-pre-wrap">{d.evidence?.[f]}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="mt-2 text-ink-700">The draft is being made; it is made again when you submit.</p>
        )}
      </details>
      {isOpen(d) && <SubmitForm dispute={d} onDone={onChange} />}
    </article>
  );
}

function SubmitForm({ dispute, onDone }: { dispute: Dispute; onDone: (d: Dispute) => void }) {
  const id = useId();
  const [statement, setStatement] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (statement.trim().length < STATEMENT_MIN) {
      setError(`Say why in at least ${STATEMENT_MIN} characters.`);
      return;
    }
    setBusy(true);
    try {
      onDone(await submitDispute(dispute.id, statement.trim()));
    } catch (err) {
      setError(err instanceof ApiProblem ? err.message : 'The evidence could not be submitted. Try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-2" aria-label="Submit the evidence">
      <div className={label}>
        <label htmlFor={id}>Your statement to the bank (sent first, kept in the audit trail)</label>
        <textarea
          id={id}
          rows={3}
          maxLength={STATEMENT_MAX}
          aria-required="true"
          className={`${input} py-2`}
          value={statement}
          onChange={(e) => {
            setStatement(e.target.value);
            setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-e` : `${id}-hint`}
        />
        <span id={`${id}-hint`} className="text-xs font-normal text-ink-700">
          What happened, in your words: for example, that the family came to its session and downloaded its photos. Once
          submitted, the evidence cannot be changed.
        </span>
        {error && <ErrorText id={`${id}-e`}>{error}</ErrorText>}
      </div>
      <Button type="submit" className="self-start" disabled={busy}>
        {busy ? 'Submitting…' : 'Submit evidence'}
      </Button>
    </form>
  );
}
