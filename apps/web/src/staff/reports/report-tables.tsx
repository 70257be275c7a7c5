import type { DonationReport } from '@kringle/contracts/donation-reports';
import { formatAud } from '@kringle/contracts/money';
import type { OccupancyRow, SalesGroup, SalesReport } from '@kringle/contracts/reports';
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

export function DonationsTable({ report }: { report: DonationReport }) {
  const rows = [
    ...report.items.map((i) => ({ ...i, label: i.date, total: false })),
    { ...report.totals, label: 'Total', total: true },
  ];
  return (
    <ScrollRegion label="Donations table">
      <table className="w-full text-sm">
        <Head text={['Date']} figures={DONATION_COLUMNS.map(([, h]) => h)} />
        <tbody>
          {rows.map((r) => (
            <tr key={r.label} className={rowClass(r.total)}>
              <RowHeader label={r.label} total={r.total} />
              {DONATION_COLUMNS.map(([k, , format]) => (
                <td key={k} className={num}>
                  {format(r[k])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
