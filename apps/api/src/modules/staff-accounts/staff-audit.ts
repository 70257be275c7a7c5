import type { Tx } from '../../db/client';
import type { UserRow } from '../accounts/users.repository';
import { insertAuditEntry, type Actor } from '../audit-trail/audit-entries.repository';

/**
 * Every change of who can do what writes an audit entry in its transaction (issue 48 item 5).
 * The audit table names bookings, sessions and seasons, not accounts: an entry about a staff
 * account names it in before and after (`staffId`, and the e-mail as it was), as the second
 * factor's entries do (mfa.service.ts). The actor is the manager who made the change.
 */
type Account = Pick<UserRow, 'id' | 'email' | 'staffRole' | 'locationIds' | 'active'>;

const subject = (a: Account) => ({ staffId: a.id, email: a.email });
const sameLocations = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

async function write(
  tx: Tx,
  now: Date,
  actor: Actor,
  action:
    | 'staff.invited'
    | 'staff.invitation_accepted'
    | 'staff.role_changed'
    | 'staff.locations_changed'
    | 'staff.deactivated'
    | 'staff.reactivated',
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Promise<void> {
  await insertAuditEntry(tx, { at: now, actor, action, bookingId: null, orderId: null, reason: null, before, after });
}

export async function auditInvited(tx: Tx, now: Date, actor: Actor, account: Account): Promise<void> {
  await write(
    tx,
    now,
    actor,
    'staff.invited',
    { ...subject(account), invited: false },
    { ...subject(account), invited: true, role: account.staffRole, locationIds: account.locationIds },
  );
}

/** The invited member sets a password: the account can be signed into from now on. */
export async function auditInvitationAccepted(tx: Tx, now: Date, account: Account): Promise<void> {
  const actor: Actor = { kind: 'staff', id: account.id, email: account.email };
  await write(
    tx,
    now,
    actor,
    'staff.invitation_accepted',
    { ...subject(account), invitationPending: true },
    { ...subject(account), invitationPending: false },
  );
}

/** One entry per kind of change a manager's edit made: role, locations, deactivated or reactivated. */
export async function auditAccountChanges(
  tx: Tx,
  now: Date,
  actor: Actor,
  before: Account,
  after: Account,
): Promise<void> {
  const who = subject(before);
  if (before.staffRole !== after.staffRole)
    await write(
      tx,
      now,
      actor,
      'staff.role_changed',
      { ...who, role: before.staffRole },
      { ...who, role: after.staffRole },
    );
  if (!sameLocations(before.locationIds, after.locationIds)) {
    await write(
      tx,
      now,
      actor,
      'staff.locations_changed',
      { ...who, locationIds: before.locationIds },
      { ...who, locationIds: after.locationIds },
    );
  }
  if (before.active !== after.active)
    await write(
      tx,
      now,
      actor,
      after.active ? 'staff.reactivated' : 'staff.deactivated',
      { ...who, active: before.active },
      { ...who, active: after.active },
    );
}
