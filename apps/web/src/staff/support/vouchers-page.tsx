import { formatAud } from '@kringle/contracts/money';
import type { StaffVoucher } from '@kringle/contracts/voucher-desk';
import type { VoucherStatus } from '@kringle/contracts/vouchers';
import { clsx } from 'clsx';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { ApiProblem } from '../../lib/api-error';
import { ActionOutcome } from '../parts/action-outcome';
import { ErrorText, input, label } from '../parts/form-parts';
import { ActionForm } from './support-actions';
import { cancelVoucher, findVouchers } from './support-api';

const SEARCH_MIN = 3;
const STATUS: Record<VoucherStatus, [string, string]> = {
  pending: ['Not paid yet', 'bg-gold-300/40 text-ink-900'],
  active: ['Active', 'bg-pine-50 text-pine-800'],
  spent: ['Spent', 'bg-cream-200 text-ink-700'],
  expired: ['Expired', 'bg-cream-200 text-ink-700'],
  cancelled: ['Cancelled', 'bg-festive-50 text-festive-800'],
};
const MOVES: Record<StaffVoucher['history'][number]['reason'], string> = {
  sold: 'Sold',
  spent: 'Spent on a booking',
  returned: 'Given back (lapse or refund)',
  cancelled: 'Cancelled by support',
  expired: 'Expired',
};
// The brand's zone: a voucher belongs to no location (VOUCHER_TIME_ZONE in the API).
const when = (iso: string) =>
  new Intl.DateTimeFormat('en-AU', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Australia/Sydney' }).format(
    new Date(iso),
  );
const day = (iso: string) =>
  new Intl.DateTimeFormat('en-AU', { dateStyle: 'medium', timeZone: 'Australia/Sydney' }).format(new Date(iso));
const signed = (cents: number) => (cents > 0 ? `+${formatAud(cents)}` : `−${formatAud(-cents)}`);

/**
 * Support's gift vouchers (issue 52): find one by its whole code or by the buyer or recipient, read its
 * every move, and cancel it, which sends its unspent balance back to the buyer's card.
 */
export function VouchersPage() {
  const [q, setQ] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [items, setItems] = useState<StaffVoucher[] | null>(null);
  const [searched, setSearched] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const id = useId();

  const search = (e: FormEvent) => {
    e.preventDefault();
    const term = q.trim();
    if (term.length < SEARCH_MIN) return setError(`Type at least ${SEARCH_MIN} characters.`);
    setError(null);
    setNotice(null);
    setBusy(true);
    findVouchers(term)
      .then((r) => {
        setItems(r.items);
        setSearched(term);
      })
      .catch((err: unknown) => setError(err instanceof ApiProblem ? err.message : 'The search failed. Try again.'))
      .finally(() => setBusy(false));
  };
  const replace = (v: StaffVoucher) => setItems((old) => old?.map((o) => (o.id === v.id ? v : o)) ?? null);

  return (
    <section aria-labelledby={`${id}-h`} className="flex flex-col gap-4">
      <h1 id={`${id}-h`} className="font-display text-2xl font-semibold">
        Gift vouchers
      </h1>
      <form onSubmit={search} className="flex flex-wrap items-end gap-3" role="search" noValidate>
        <div className={clsx(label, 'w-full max-w-md')}>
          <label htmlFor={id}>Code, or the buyer's or recipient's e-mail or name</label>
          <input
            id={id}
            type="search"
            className={input}
            value={q}
            maxLength={100}
            autoComplete="off"
            onChange={(e) => setQ(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-e` : undefined}
          />
          {error && <ErrorText id={`${id}-e`}>{error}</ErrorText>}
        </div>
        <Button type="submit" disabled={busy}>
          {busy ? 'Searching…' : 'Find'}
        </Button>
      </form>
      <p role="status" className="text-sm text-ink-700">
        {items === null
          ? ''
          : items.length === 0
            ? `No gift voucher matches “${searched}”.`
            : `${items.length} ${items.length === 1 ? 'voucher' : 'vouchers'} for “${searched}”`}
      </p>
      <ActionOutcome notice={notice} problem={null} />
      <ul className="flex flex-col gap-4">
        {items?.map((v) => (
          <li key={v.id}>
            <VoucherCard voucher={v} onCancelled={(c, message) => (replace(c), setNotice(message))} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function VoucherCard({
  voucher: v,
  onCancelled,
}: {
  voucher: StaffVoucher;
  onCancelled: (v: StaffVoucher, message: string) => void;
}) {
  const headingId = useId();
  const [words, tint] = STATUS[v.status];
  const facts: [string, string][] = [
    ['Value', formatAud(v.amountCents)],
    ['Balance', formatAud(v.balanceCents)],
    ['Expires', v.expiresAt ? day(v.expiresAt) : 'Once paid, three years on'],
    ['Bought by', v.buyerEmail ?? 'A deleted account'],
    ['For', v.recipientEmail ? `${v.recipientName} (${v.recipientEmail})` : `${v.recipientName} (through the buyer)`],
    ['Claimed by', v.ownerEmail ?? 'Nobody yet'],
    ['E-mail', v.sentAt ? `Sent ${when(v.sentAt)}` : `Goes on ${v.sendOn}`],
  ];
  if (v.refund)
    facts.push([
      'Refund to card',
      `${formatAud(v.refund.cents)}, ${v.refund.status === 'sent' ? 'sent' : 'on its way to Stripe'}`,
    ]);
  if (v.cancelReason) facts.push(['Why cancelled', v.cancelReason]);
  return (
    <article
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-2xl border border-cream-300 bg-white p-4"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="font-mono text-lg font-semibold tracking-wide">
          <span className="sr-only">Voucher </span>
          {v.code}
        </h2>
        <span className={clsx('rounded-full px-3 py-1 text-sm font-semibold', tint)}>{words}</span>
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        {facts.map(([name, value]) => (
          <div key={name} className="contents">
            <dt className="font-semibold text-ink-700">{name}</dt>
            <dd className="mb-1 break-words text-ink-900 sm:mb-0">{value}</dd>
          </div>
        ))}
      </dl>
      <h3 className="font-semibold">History</h3>
      <ol className="flex flex-col gap-1 text-sm">
        {v.history.map((h, i) => (
          <li key={i} className="flex flex-wrap justify-between gap-x-4 border-t border-cream-200 pt-1">
            <span>
              {when(h.at)}: {MOVES[h.reason]}
            </span>
            <span className="tabular-nums font-semibold">{signed(h.cents)}</span>
          </li>
        ))}
      </ol>
      {v.status === 'active' && (
        <ActionForm
          title="Cancel this voucher"
          submit="Cancel voucher"
          confirm={() => ({
            text:
              `Cancel ${v.code}? ${formatAud(v.balanceCents)} goes back to the buyer's card` +
              `${v.ownerEmail ? `, and ${v.ownerEmail} can no longer spend it` : ''}.`,
            yes: `Cancel and refund ${formatAud(v.balanceCents)}`,
          })}
          run={async (reason) => {
            const cancelled = await cancelVoucher(v.id, reason);
            const message = `${cancelled.code} cancelled: ${formatAud(cancelled.refund?.cents ?? 0)} back to the card.`;
            onCancelled(cancelled, message);
            return message;
          }}
          onDone={() => {}}
        />
      )}
    </article>
  );
}
