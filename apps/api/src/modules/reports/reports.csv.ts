import {
  SALES_CHANNEL_LABELS,
  SALES_CHANNELS,
  type OccupancyReport,
  type SalesFigures,
  type SalesReport,
} from '@kringle/contracts/reports';
import type { DonationReport } from '@kringle/contracts/donation-reports';
import type { VoucherReport } from '@kringle/contracts/voucher-reports';
import { csvDocument } from '../staff/run-sheet.csv';

const KEY_HEADER = { day: 'Day', location: 'Location', package: 'Package' } as const;

/** Dollars with two decimals and no symbol, so a spreadsheet reads them as numbers. */
const dollars = (cents: number) => (cents / 100).toFixed(2);

const money = (f: SalesFigures) => [
  f.bookings,
  dollars(f.grossCents),
  dollars(f.gstCents),
  dollars(f.refundsCents),
  dollars(f.refundsGstCents),
  dollars(f.netCents),
  dollars(f.gstCents - f.refundsGstCents),
  dollars(f.disputedCents),
  dollars(f.disputesLostCents),
];

/**
 * For the accountant: a line per key and channel (online, walk-in), so the lines add up to the
 * totals, which close the file (one line per channel, then "All"). Location names and package
 * names are the brand's own text: every cell goes through csvCell.
 */
export function salesCsv(report: SalesReport): string {
  const rows: (string | number)[][] = [
    [
      KEY_HEADER[report.groupBy],
      'Channel',
      'Bookings',
      'Gross (AUD)',
      'GST (AUD)',
      'Refunds (AUD)',
      'GST refunded (AUD)',
      'Net (AUD)',
      'Net GST (AUD)',
      'Disputed (AUD)',
      'Disputes lost (AUD)',
    ],
  ];
  for (const item of report.items) {
    for (const channel of SALES_CHANNELS) {
      if (item.channels[channel].bookings > 0)
        rows.push([item.label, SALES_CHANNEL_LABELS[channel], ...money(item.channels[channel])]);
    }
  }
  for (const channel of SALES_CHANNELS)
    rows.push(['Total', SALES_CHANNEL_LABELS[channel], ...money(report.totals.channels[channel])]);
  rows.push(['Total', 'All', ...money(report.totals)]);
  return csvDocument(rows);
}

export function occupancyCsv(report: OccupancyReport): string {
  const rows: (string | number)[][] = [
    ['Date', 'Location', 'Capacity', 'Booked', 'Held', 'Free', 'Closed', 'Checked in', 'No-show'],
  ];
  for (const r of report.items)
    rows.push([r.date, r.locationName, r.capacity, r.booked, r.held, r.free, r.closed, r.checkedIn, r.noShow]);
  return csvDocument(rows);
}

/** For the charity: a line per day, then the totals; the charity's name heads the file. */
export function vouchersCsv(report: VoucherReport): string {
  const rows: (string | number)[][] = [
    ['Date', 'Sold', 'Sold (AUD)', 'Redeemed (AUD)', 'Expired (AUD)', 'Cancelled (AUD)'],
  ];
  const line = (label: string, r: Omit<VoucherReport['totals'], 'outstandingCents'>) => [
    label,
    r.soldCount,
    dollars(r.soldCents),
    dollars(r.redeemedCents),
    dollars(r.expiredCents),
    dollars(r.cancelledCents),
  ];
  for (const r of report.items) rows.push(line(r.date, r));
  rows.push(line('Total', report.totals));
  rows.push(['Outstanding now (AUD)', dollars(report.totals.outstandingCents)]);
  return csvDocument(rows);
}

export function donationsCsv(report: DonationReport): string {
  const rows: (string | number)[][] = [
    ['Charity', report.charityName ?? ''],
    ['Date', 'Donations', 'Donated (AUD)', 'Refunded (AUD)', 'Net (AUD)'],
  ];
  for (const r of report.items)
    rows.push([r.date, r.count, dollars(r.donatedCents), dollars(r.refundedCents), dollars(r.netCents)]);
  const t = report.totals;
  rows.push(['Total', t.count, dollars(t.donatedCents), dollars(t.refundedCents), dollars(t.netCents)]);
  return csvDocument(rows);
}
