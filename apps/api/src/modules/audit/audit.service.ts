import type { AuditAbout, AuditEntry, AuditList, AuditQuery } from '@kringle/contracts/audit';
import { addDays, zonedToInstant } from '@kringle/contracts/dates';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../lib/errors';
import { listAuditEntries, type AuditFilter, type AuditRow } from './audit-list.repository';
import { aboutOf } from './audit-about.repository';

type Deps = Pick<FastifyInstance, 'db'>;

export const AUDIT_PAGE = 100;
/** The CSV is one request: a season's busiest day fits many times over. */
export const AUDIT_CSV_MAX = 50_000;

export const toAuditEntry = (r: AuditRow, about?: AuditAbout): AuditEntry => ({
  id: r.id,
  at: r.at.toISOString(),
  actor: r.actor,
  action: r.action,
  bookingId: r.bookingId,
  slotId: r.slotId ?? null,
  seasonVersion: r.seasonVersion ?? null,
  orderId: r.orderId,
  reason: r.reason,
  before: r.before,
  after: r.after,
  ...(about ? { about } : {}),
});

/** The cursor is the last entry's (at, seq): stable while entries are appended, never edited. */
const encodeCursor = (r: AuditRow) => Buffer.from(JSON.stringify([r.atExact, r.seq])).toString('base64url');

function decodeCursor(cursor: string): { at: string; seq: number } {
  try {
    const [at, seq] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, number];
    // Checked here so that only a well-formed instant ever reaches the query.
    if (
      typeof at !== 'string' ||
      !/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?[+-]\d\d(:\d\d)?$/.test(at) ||
      !Number.isSafeInteger(seq)
    )
      throw new Error('bad cursor');
    return { at, seq };
  } catch {
    throw errors.invalidField('cursor', 'That cursor is not one this list gave.');
  }
}

/** from/to are whole days, both inclusive: UTC days, or the days of `timeZone` (a location's local day). */
export function filterOf(q: Omit<AuditQuery, 'cursor'>, limit: number): AuditFilter {
  if (q.from && q.to && q.from > q.to) throw errors.invalidField('to', 'The last day is before the first.');
  const startOf = (day: string) =>
    q.timeZone ? zonedToInstant(day, '00:00', q.timeZone) : new Date(`${day}T00:00:00Z`);
  return {
    bookingId: q.bookingId,
    actorId: q.actorId,
    from: q.from ? startOf(q.from) : undefined,
    to: q.to ? startOf(addDays(q.to, 1)) : undefined,
    family: q.family,
    reference: q.reference,
    staffEmail: q.staffEmail,
    limit,
  };
}

/** GET /staff/audit: oldest first, a page at a time. */
export async function listAudit(deps: Deps, q: AuditQuery): Promise<AuditList> {
  const filter = { ...filterOf(q, AUDIT_PAGE + 1), after: q.cursor ? decodeCursor(q.cursor) : undefined };
  const rows = await listAuditEntries(deps.db, filter);
  const page = rows.slice(0, AUDIT_PAGE);
  const about = await aboutOf(deps.db, page);
  return {
    items: page.map((r) => toAuditEntry(r, about.get(r.id))),
    nextCursor: rows.length > AUDIT_PAGE ? encodeCursor(page.at(-1)!) : null,
  };
}

/** The CSV's rows, each with what it is about (for its plain words). */
export async function auditRows(
  deps: Deps,
  q: Omit<AuditQuery, 'cursor'>,
): Promise<{ rows: AuditRow[]; about: Map<string, AuditAbout> }> {
  const rows = await listAuditEntries(deps.db, filterOf(q, AUDIT_CSV_MAX));
  return { rows, about: await aboutOf(deps.db, rows) };
}
