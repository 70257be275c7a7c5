import { formatAud } from '@kringle/contracts/money';
import { PAID_WITH, PAID_WITH_LABELS, type RunSheet } from '@kringle/contracts/staff';

const COUNTS: { key: Exclude<keyof RunSheet['counts'], 'paidWith' | 'sessions' | 'breaks'>; label: string }[] = [
  { key: 'booked', label: 'Booked' },
  { key: 'checkedIn', label: 'Checked in' },
  { key: 'noShow', label: 'No-shows' },
  { key: 'cancelled', label: 'Cancelled' },
  { key: 'free', label: 'Free sessions' },
  { key: 'people', label: 'People expected' },
];

/** The day's counts, and the walk-ins' takings by how they were paid (the end-of-day totals). */
export function RunSheetCounts({ counts }: { counts: RunSheet['counts'] }) {
  return (
    <>
      <ul aria-label="Counts" className="grid grid-cols-3 gap-2 md:grid-cols-6">
        {COUNTS.map((c) => (
          <li key={c.key} className="rounded-xl bg-cream-50 p-3 ring-1 ring-cream-300" data-print="block">
            <span className="block text-2xl font-bold">{counts[c.key]}</span>
            <span className="text-sm text-ink-700">{c.label}</span>
          </li>
        ))}
      </ul>
      <ul aria-label="Walk-in takings" className="grid grid-cols-3 gap-2 md:grid-cols-6">
        {PAID_WITH.map((m) => (
          <li key={m} className="rounded-xl bg-cream-50 px-3 py-2 ring-1 ring-cream-300" data-print="block">
            <span className="block text-lg font-bold">{formatAud(counts.paidWith[m].amountCents)}</span>
            <span className="text-sm text-ink-700">
              {PAID_WITH_LABELS[m]}: {counts.paidWith[m].bookings} walk-in{counts.paidWith[m].bookings === 1 ? '' : 's'}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
