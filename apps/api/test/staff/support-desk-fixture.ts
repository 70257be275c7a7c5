import { zonedToInstant } from '@kringle/contracts/dates';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createPerson, SYDNEY, staffDay, type Person, type StaffDay } from './staff-fixtures';

export interface SupportDesk {
  /** The staff day, filled in by the beforeAll this registers: the tests take it before the hooks run. */
  w: StaffDay;
  /** The next unused session of the day: each test books its own. */
  session(): StaffDay['sessions'][number];
  /** Support for the whole brand (filled in as `w`). */
  support: Person;
  outboxTo(email: string): Promise<{ subject: string; text: string }[]>;
  auditOf(bookingId: string): Promise<
    {
      action: string;
      reason: string | null;
      actor: { kind: string; id: string; email: string };
      before: Record<string, unknown>;
      after: Record<string, unknown>;
    }[]
  >;
}

/**
 * The support desk tests' world (support-desk.test.ts, support-desk-changes.test.ts): a staff day with a support
 * member, each test at 9:45 am in Sydney. Call it inside the file's describe; it registers that describe's hooks.
 */
export function supportDesk(): SupportDesk {
  const w = {} as StaffDay;
  let next = 0;
  const support = {} as Person;
  /** The audit trail is a manager's to read. */
  const manager = {} as Person;

  beforeAll(async () => {
    Object.assign(w, await staffDay());
    Object.assign(
      support,
      await createPerson(
        w.t.db,
        true,
        { firstName: 'Sam', lastName: 'Support' },
        { role: 'support', mfaEnrolled: true },
      ),
    );
    Object.assign(
      manager,
      await createPerson(
        w.t.db,
        true,
        { firstName: 'Mo', lastName: 'Manager' },
        { role: 'manager', mfaEnrolled: true },
      ),
    );
  });
  afterAll(async () => w.t?.close());
  // The day, 9:45 am in Sydney: every session of it is inside the family's reschedule cutoff.
  beforeEach(() => w.clock.set(zonedToInstant(w.day, '09:45', SYDNEY)));

  return {
    w,
    session: () => w.sessions[next++]!,
    support,
    outboxTo: async (email) =>
      (await w.t.db.execute(sql`select subject, text from mail_outbox where to_address = ${email} order by created_at`))
        .rows as { subject: string; text: string }[],
    auditOf: async (bookingId) => (await w.call('GET', `/staff/audit?bookingId=${bookingId}`, manager)).json().items,
  };
}
