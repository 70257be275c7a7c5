import { nameParts } from '@kringle/contracts/names';
import type { User } from '@kringle/contracts/accounts';
import type { UserRow } from './users.repository';

/** The API.md `user` shape; `displayName` falls back to the e-mail's local part. */
export function toUser(row: UserRow): User {
  const { fullname } = nameParts(row.firstName, row.lastName);
  return {
    id: row.id,
    email: row.email,
    emailVerified: row.emailVerifiedAt !== null,
    firstName: row.firstName,
    lastName: row.lastName,
    displayName: fullname || row.email.split('@')[0]!,
    phone: row.phone,
    sms: { reminders: row.smsReminders },
    preferredLocationId: row.preferredLocationId,
    createdAt: row.createdAt.toISOString(),
  };
}

export function tokenSubject(row: UserRow) {
  return {
    id: row.id,
    email: row.email,
    emailVerified: row.emailVerifiedAt !== null,
    isStaff: row.isStaff,
    staffRole: row.staffRole ?? null,
    sessionEpoch: row.sessionEpoch,
  };
}
