import type { DonationReport } from '@kringle/contracts/donation-reports';
import { formatAud } from '@kringle/contracts/money';
import type { OccupancyRow, SalesGroup, SalesReport } from '@kringle/contracts/reports';
import type { VoucherReport } from '@kringle/contracts/voucher-reports';
import { ScrollRegion } from '../parts/scroll-region';

const th = 'px-3 py-2 text-left font-semibold whitespace-nowrap';
const td = 'px-3 py-2 whitespace-nowrap';
const num = `${td} text-right tabular-nums`;
const KEY_HEADER: Record<SalesGroup, string> = { day: 'Day', location: 'Location', package: 'Package' };

/** The column headers: text columns first, then the figures' (right-aligned like their cells). */
function Head({ text, figures }: { text: string[]; figures: string[] }) {
  return (
    <thead className="bg-cream-200">
      <tr>
        {[...text.map((h) => [h, th] as const), ...figures.map((h) => [h, `${th} text-right`] as const)].map(
          ([h, className]) => (
            <th key={h} scope="col" className={className}>
              {h}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}

/** A totals row stands apart from the rows it adds up. */
const rowClass = (total: boolean) => (total ? 'border-t-2 border-ink-600 font-semibold' : 'border-t border-cream-300');

function RowHeader({ label, total }: { label: string; total: boolean }) {
  return (
    <th scope="row" className={`${td} text-left ${total ? 'font-semibold' : 'font-normal'}`}>
      {label}
    </th>
  );
}

export function SalesTable({ report }: { report: SalesReport }) {
  const rows = [
    ...report.items.map((i) => ({ ...i, total: false })),
    { ...report.totals, key: 'total', label: 'Total', total: true },
  ];
  return (
    <ScrollRegion label="Sales table">
      <table className="w-full text-sm">
        <Head
          text={[KEY_HEADER[report.groupBy]]}
          figures={[
            'Bookings',
            'Gross',
            'GST',
            'Refunds',
            'Net',
            'Online net',
            'Walk-in net',
            'Disputed',
            'Disputes lost',
          ]}
        />
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} className={rowClass(r.total)}>
              <RowHeader label={r.label} total={r.total} />
              <td className={num}>{r.bookings}</td>
              <td className={num}>{formatAud(r.grossCents)}</td>
              <td className={num}>{formatAud(r.gstCents)}</td>
              <td className={num}>{formatAud(r.refundsCents)}</td>
              <td className={num}>{formatAud(r.netCents)}</td>
              <td className={num}>{formatAud(r.channels.online.netCents)}</td>
              <td className={num}>{formatAud(r.channels.walkin.netCents)}</td>
              <td className={num}>{formatAud(r.disputedCents)}</td>
              <td className={num}>{formatAud(r.disputesLostCents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

const OCCUPANCY_COLUMNS: [keyof OccupancyRow, string][] = [
  ['capacity', 'Capacity'],
  ['booked', 'Booked'],
  ['held', 'Held'],
  ['free', 'Free'],
  ['closed', 'Closed'],
  ['checkedIn', 'Checked in'],
  ['noShow', 'No-show'],
];

export function OccupancyTable({ items }: { items: OccupancyRow[] }) {
  return (
    <ScrollRegion label="Occupancy table">
      <table className="w-full text-sm">
        <Head text={['Day', 'Location']} figures={OCCUPANCY_COLUMNS.map(([, h]) => h)} />
        <tbody>
          {items.map((r) => (
            <tr key={`${r.date} ${r.locationId}`} className="border-t border-cream-300">
              <th scope="row" className={`${td} text-left font-normal`}>
                {r.date}
              </th>
              <td className={td}>{r.locationName}</td>
              {OCCUPANCY_COLUMNS.map(([k]) => (
                <td key={k} className={num}>
                  {r[k]}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

const DONATION_COLUMNS: [keyof DonationReport['totals'], string, (n: number) => string][] = [
  ['count', 'Donations', String],
  ['donatedCents', 'Donated', formatAud],
  ['refundedCents', 'Refunded', formatAud],
  ['netCents', 'Net', formatAud],
];

/** A report's figures by day with its totals row: one column per figure, each with its format. */
function DaysTable<C extends string>({
  label,
  items,
  totals,
  columns,
}: {
  label: string;
  items: (Record<C, number> & { date: string })[];
  totals: Record<C, number>;
  columns: [C, string, (n: number) => string][];
}) {
  const rows = [
    ...items.map((i) => ({ figures: i as Record<C, number>, label: i.date, total: false })),
    { figures: totals, label: 'Total', total: true },
  ];
  return (
    <ScrollRegion label={label}>
      <table className="w-full text-sm">
        <Head text={['Date']} figures={columns.map(([, h]) => h)} />
        <tbody>
          {rows.map((r) => (
            <tr key={r.label} className={rowClass(r.total)}>
              <RowHeader label={r.label} total={r.total} />
              {columns.map(([k, , format]) => (
                <td key={k} className={num}>
                  {format(r.figures[k])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

export const DonationsTable = ({ report }: { report: DonationReport }) => (
  <DaysTable label="Donations table" items={report.items} totals={report.totals} columns={DONATION_COLUMNS} />
);

type VoucherFigures = Omit<VoucherReport['totals'], 'outstandingCents'>;
const VOUCHER_COLUMNS: [keyof VoucherFigures, string, (n: number) => string][] = [
  ['soldCount', 'Sold', String],
  ['soldCents', 'Sold value', formatAud],
  ['redeemedCents', 'Redeemed', formatAud],
  ['expiredCents', 'Expired', formatAud],
  ['cancelledCents', 'Cancelled', formatAud],
];

export const VouchersTable = ({ report }: { report: VoucherReport }) => (
  <DaysTable label="Gift vouchers table" items={report.items} totals={report.totals} columns={VOUCHER_COLUMNS} />
);

/** A report's headline figures, each a labelled amount. */
export function FigureCards({ figures }: { figures: readonly (readonly [string, number])[] }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {figures.map(([name, cents]) => (
        <div key={name} className="rounded-xl border border-cream-300 bg-cream-50 p-3">
          <dt className="text-sm text-ink-700">{name}</dt>
          <dd className="text-xl font-semibold tabular-nums">{formatAud(cents)}</dd>
        </div>
      ))}
    </dl>
  );
}
