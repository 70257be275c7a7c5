import type { Voucher } from '@kringle/contracts/vouchers';
import { formatAud } from '@kringle/contracts/money';
import { Button } from '../../components/ui/button';
import { LoadProblem } from '../../components/ui/load-problem';
import { useGiftVouchersQuery } from './api';
import { deliveryWords, formatExpiry } from './gift-form';
import { useVoucherDownloads } from './voucher-downloads';
import { VoucherStatusTag } from './voucher-status-tag';

/** The vouchers this family paid for: an unpaid one (a card declined, a payment left) is not a gift yet. */
export const givenVouchers = (items: Voucher[]) => items.filter((v) => v.bought && v.status !== 'pending');

function GivenVoucher({
  voucher,
  today,
  downloads,
}: {
  voucher: Voucher;
  today: string;
  downloads: ReturnType<typeof useVoucherDownloads>;
}) {
  const busy = downloads.busy?.id === voucher.id ? downloads.busy.file : null;
  const headingId = `given-${voucher.id}`;
  return (
    <li
      data-testid="given-voucher"
      data-code={voucher.code}
      className="flex flex-col gap-3 rounded-2xl border border-cream-300 bg-cream-50 p-4 sm:p-5"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={headingId} className="min-w-0 text-lg font-semibold text-ink-900 [overflow-wrap:anywhere]">
          {formatAud(voucher.amountCents)} for {voucher.recipientName}
        </h3>
        <VoucherStatusTag status={voucher.status} />
      </div>
      <dl className="grid gap-x-6 gap-y-2 text-ink-900 sm:grid-cols-2">
        <div>
          <dt className="text-sm text-ink-600">Code</dt>
          <dd className="font-mono font-semibold tracking-wide" data-testid="given-voucher-code">
            {voucher.code}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-ink-600">Left to spend</dt>
          <dd className="tabular-nums" data-testid="given-voucher-balance">
            {formatAud(voucher.balanceCents)} of {formatAud(voucher.amountCents)}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-ink-600">E-mail</dt>
          <dd>{deliveryWords(voucher, today)}</dd>
        </div>
        {voucher.expiresAt && (
          <div>
            <dt className="text-sm text-ink-600">{voucher.status === 'expired' ? 'Expired' : 'Valid until'}</dt>
            <dd>{formatExpiry(voucher.expiresAt)}</dd>
          </div>
        )}
      </dl>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button
          variant="secondary"
          onClick={() => downloads.download(voucher, 'certificate')}
          disabled={busy !== null}
          aria-busy={busy === 'certificate'}
          aria-describedby={headingId}
        >
          {busy === 'certificate' ? 'Downloading…' : 'Download certificate'}
        </Button>
        <Button
          variant="secondary"
          onClick={() => downloads.download(voucher, 'receipt')}
          disabled={busy !== null}
          aria-busy={busy === 'receipt'}
          aria-describedby={headingId}
        >
          {busy === 'receipt' ? 'Downloading…' : 'Download receipt'}
        </Button>
      </div>
    </li>
  );
}

/** "Gift vouchers you gave": what each has left, when its e-mail goes, its certificate and receipt. */
export function GivenVouchers({ today }: { today: string }) {
  const list = useGiftVouchersQuery();
  const downloads = useVoucherDownloads();
  const given = list.data ? givenVouchers(list.data) : [];
  return (
    <section aria-labelledby="given-vouchers" className="flex flex-col gap-3">
      <h2 id="given-vouchers" className="text-2xl font-semibold text-ink-900">
        Gift vouchers you gave
      </h2>
      {list.isLoading && (
        <p role="status" className="text-ink-700">
          Loading your gift vouchers…
        </p>
      )}
      {list.isError && !list.data && (
        <LoadProblem onRetry={() => void list.refetch()}>We could not load your gift vouchers.</LoadProblem>
      )}
      {list.data && given.length === 0 && (
        <p className="rounded-2xl bg-cream-200 p-4 text-ink-700">
          None yet. The vouchers you give show here, with their certificates and receipts.
        </p>
      )}
      {given.length > 0 && (
        <ul className="flex flex-col gap-3">
          {given.map((v) => (
            <GivenVoucher key={v.id} voucher={v} today={today} downloads={downloads} />
          ))}
        </ul>
      )}
    </section>
  );
}
