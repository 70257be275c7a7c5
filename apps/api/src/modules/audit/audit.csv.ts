import { ACTOR_KIND_LABELS } from '@kringle/contracts/audit';
import { AUDIT_ACTION_LABELS } from '@kringle/contracts/audit-actions';
import type { AuditAbout } from '@kringle/contracts/audit';
import { describeChange } from '@kringle/contracts/audit-words';
import type { AuditRow } from './audit-list.repository';
import { csvCell } from '../staff/run-sheet.csv';

const HEADER = [
  'At (UTC)',
  'Actor',
  'Actor id',
  'Actor e-mail',
  'Action',
  'Booking',
  'Session',
  'Season version',
  'Order',
  'Reason',
  'Before',
  'After',
  'Booking reference',
  'Family',
  'What changed',
] as const;

/**
 * The audit trail as CSV. Reasons are typed by staff and the before/after values carry families'
 * text, so every cell goes through the run sheet's csvCell (quoted, formula-looking cells made text).
 * The last three columns say the entry in plain words (issue 53 item 9), as the audit page does;
 * times there are the location's local times.
 */
export function auditCsv({ rows, about }: { rows: AuditRow[]; about: Map<string, AuditAbout> }): string {
  const lines = rows.map((r) => {
    const a = about.get(r.id);
    return [
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
      a?.reference ?? '',
      a?.family ? [a.family.name, a.family.email].filter(Boolean).join(' ') : '',
      describeChange({ before: r.before, after: r.after, slotId: r.slotId ?? null, about: a }, 'UTC').join('; '),
    ]
      .map(csvCell)
      .join(',');
  });
  return `${[HEADER.map(csvCell).join(','), ...lines].join('\r\n')}\r\n`;
}
