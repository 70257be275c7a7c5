import { ACTOR_KIND_LABELS } from '@kringle/contracts/audit';
import { AUDIT_ACTION_LABELS } from '@kringle/contracts/audit-actions';
import type { AuditRow } from '../booking-lifecycle/audit.repository';
import { csvCell } from '../staff/run-sheet.csv';

const HEADER = ['At (UTC)', 'Actor', 'Actor id', 'Actor e-mail', 'Action', 'Booking', 'Session', 'Season version', 'Order', 'Reason', 'Before', 'After'] as const;

/**
 * The audit trail as CSV. Reasons are typed by staff and the before/after values carry families'
 * text, so every cell goes through the run sheet's csvCell (quoted, formula-looking cells made text).
 */
export function auditCsv(rows: AuditRow[]): string {
  const lines = rows.map((r) =>
    [
      r.at.toISOString(),
      ACTOR_KIND_LABELS[r.actor.kind],
      r.actor.id ?? '',
      r.actor.email ?? '',
      AUDIT_ACTION_LABELS[r.action] ?? r.action,
      r.bookingId ?? '',
      r.slotId ?? '',
      r.seasonVersion ?? '',
      r.orderId ?? '',
      r.reason ?? '',
      JSON.stringify(r.before),
      JSON.stringify(r.after),
    ]
      .map(csvCell)
      .join(','),
  );
  return `${[HEADER.map(csvCell).join(','), ...lines].join('\r\n')}\r\n`;
}
