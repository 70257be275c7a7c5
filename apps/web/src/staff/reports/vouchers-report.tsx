import type { VoucherReport } from '@kringle/contracts/voucher-reports';
import { useId } from 'react';
import { Button } from '../../components/ui/button';
import { FigureCards, VouchersTable } from './report-tables';

/**
 * The gift voucher liability (issue 52): what was sold, redeemed, expired and cancelled by day, and what
 * is still owed. Brand-wide: a voucher is bought and spent at any location. A sale is not a taxable
 * supply, so none of it is in the sales above until a voucher pays for a booking.
 */
export function VouchersReport({ report, onDownload }: { report: VoucherReport; onDownload: () => void }) {
  const headingId = useId();
  const t = report.totals;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="font-display text-xl font-semibold">
          Gift vouchers
        </h2>
        <Button variant="secondary" onClick={onDownload}>
          Download gift vouchers CSV
        </Button>
      </div>
      <p className="text-sm text-ink-700">
        Every location: a voucher is spent anywhere. Its sale is not in the sales above; the bookings it pays for are.
      </p>
      <FigureCards
        figures={[
          ['Sold', t.soldCents],
          ['Redeemed', t.redeemedCents],
          ['Expired or cancelled', t.expiredCents + t.cancelledCents],
          ['Outstanding now', t.outstandingCents],
        ]}
      />
      <VouchersTable report={report} />
    </section>
  );
}
