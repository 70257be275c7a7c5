import type { Tx } from '../../db/client';
import { familyActor, insertAuditEntry } from '../audit-trail/audit-entries.repository';
import type { UserRow } from './users.repository';

const PROFILE_FIELDS = ['firstName', 'lastName', 'phone', 'preferredLocationId', 'smsReminders'] as const;

/**
 * A family's own edit of its name, phone or preferred location, audited in its transaction
 * (issue 48 item 5). The entry says which fields changed, not their values: names and phone are
 * erased when the account is deleted, the trail is kept (decision 0058). The preferred location
 * is no personal detail, so its ids are kept. An edit that changes nothing writes nothing.
 */
export async function auditProfileChange(tx: Tx, now: Date, before: UserRow, after: UserRow): Promise<void> {
  const changed = PROFILE_FIELDS.filter((k) => (before[k] ?? null) !== (after[k] ?? null));
  if (!changed.length) return;
  const location = (r: UserRow) =>
    changed.includes('preferredLocationId') ? { preferredLocationId: r.preferredLocationId ?? null } : {};
  await insertAuditEntry(tx, {
    at: now,
    actor: familyActor(before.id),
    action: 'family.profile_changed',
    bookingId: null,
    orderId: null,
    reason: null,
    before: { changed, ...location(before) },
    after: { changed, ...location(after) },
  });
}
