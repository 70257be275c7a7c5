import type { Closure } from '@kringle/contracts/closures';
import { csvCell } from '../staff/run-sheet.csv';

const HEADER = ['Booking', 'Reference', 'Outcome', 'Detail'] as const;
const LABELS: Record<string, string> = {
  move_offered: 'Move offered',
  moved: 'Moved',
  refunded: 'Refunded',
  failed: 'Failed',
};

/**
 * A closure's outcome per booking, for the manager's records (cells through csvCell: references are safe, details may
 * carry names).
 */
export function closureCsv(closure: Closure): string {
  const lines = closure.outcomes.map((o) =>
    [o.bookingId, o.reference, o.outcome ? LABELS[o.outcome]! : 'Not handled yet', o.detail].map(csvCell).join(','),
  );
  return `${[HEADER.map(csvCell).join(','), ...lines].join('\r\n')}\r\n`;
}
