import { accessSummary } from '@kringle/contracts/access-needs';
import { formatClockTime } from '@kringle/contracts/dates';
import { nameParts } from '@kringle/contracts/names';
import { ATTENDANCE_LABELS, PAID_WITH, PAID_WITH_LABELS, SLOT_STATE_LABELS } from '@kringle/contracts/staff';
import { paidTotals, slotState, type DayData } from './staff.service';

/** Plain dollars for a spreadsheet to sum: 3995 → "39.95". */
const dollars = (cents: number) => (cents / 100).toFixed(2);

const HEADER = [
  'Date',
  'Location',
  'Start',
  'End',
  'Session',
  'Reference',
  'Family',
  'E-mail',
  'Children',
  'Adults',
  'Pets',
  'People',
  'Access needs',
  'Access note',
  'Note for Santa',
  'Packages and add-ons',
  'Amount (AUD)',
  'Paid with',
  'Source',
  'Status',
  'Checked in',
] as const;

/**
 * One cell, RFC 4180 quoted. A spreadsheet runs a cell that starts with = + - @ (or a tab or
 * carriage return) as a formula, and the family's notes are theirs to write: such a cell starts
 * with an apostrophe, which spreadsheets show as text (OWASP "CSV injection").
 */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

/** CRLF lines (RFC 4180) and a byte-order mark, so spreadsheet apps read the file as UTF-8. */
export function csvDocument(rows: (string | number)[][]): string {
  return `\uFEFF${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/**
 * The day's run sheet as CSV, as the run sheet shows it: a row per booking, and one for a session
 * with no live booking (its state as Status: free, held, closed); breaks too. Each row names its
 * day and place, so files from several days or places can be put together.
 */
export function runSheetCsv(day: DayData): string {
  const tz = day.location.timezone;
  const time = (iso: Date | string) => formatClockTime(iso, tz);
  const rows: (string | number)[][] = [[...HEADER]];
  for (const slot of day.slots) {
    const base = [
      day.date,
      day.location.name,
      time(slot.startAt),
      time(slot.endAt),
      slot.kind === 'break' ? 'Break' : slot.slotTypeName,
    ];
    const here = day.bookings.filter((b) => b.slot.id === slot.id);
    for (const b of here) {
      const d = b.details;
      rows.push([
        ...base,
        b.reference,
        // As the staff app and e-mails show it: names are stored as typed, often all lower case.
        nameParts(b.customer.firstName, b.customer.lastName).fullname,
        b.customer.email ?? '',
        d ? d.children.map((c) => `${c.firstName} (${c.age})`).join(', ') : '',
        d ? d.adults : '',
        d ? d.pets : '',
        d ? d.children.length + d.adults : '',
        d ? accessSummary(d) : '',
        d?.accessNote ?? '',
        d?.noteForSanta ?? '',
        b.items.map((i) => `${i.quantity} × ${i.name}`).join('; '),
        dollars(b.amountCents),
        b.paidWith ? PAID_WITH_LABELS[b.paidWith] : '',
        b.source === 'walkin' ? 'Walk-in' : 'Online',
        ATTENDANCE_LABELS[b.attendance],
        b.checkedInAt ? time(b.checkedInAt) : '',
      ]);
    }
    if (here.every((b) => b.attendance === 'cancelled')) {
      const empty: (string | number)[] = HEADER.map(() => '');
      empty[HEADER.indexOf('Status')] = slot.kind === 'break' ? '' : SLOT_STATE_LABELS[slotState(slot, day.now)];
      rows.push([...base, ...empty.slice(base.length)]);
    }
  }
  // The end-of-day totals: a row per way of paying, what the till and the terminals should hold.
  const totals = paidTotals(day.bookings);
  for (const method of PAID_WITH) {
    const row: (string | number)[] = HEADER.map(() => '');
    const { bookings, amountCents } = totals[method];
    row[HEADER.indexOf('Date')] = day.date;
    row[HEADER.indexOf('Location')] = day.location.name;
    row[HEADER.indexOf('Session')] = 'Total';
    row[HEADER.indexOf('Packages and add-ons')] = `${bookings} walk-in${bookings === 1 ? '' : 's'}`;
    row[HEADER.indexOf('Amount (AUD)')] = dollars(amountCents);
    row[HEADER.indexOf('Paid with')] = PAID_WITH_LABELS[method];
    row[HEADER.indexOf('Source')] = 'Walk-in';
    rows.push(row);
  }
  return csvDocument(rows);
}
