import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/**
 * The support desk's reads (decision 0051); every write goes through
 * booking-lifecycle/booking-change-transitions.ts.
 */

export interface FamilyRow {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
}

/** `%part%` for ILIKE with the user's % and _ taken literally. */
const containing = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The digits a phone search means, or null when `q` is not a phone number: a leading 0 or +61 is
 * dropped, so "0412 345 678" and "+61 412 345 678" both look for "412345678" in the stored digits.
 */
export function phoneDigits(q: string): string | null {
  if (!/^[\d\s()+.-]+$/.test(q)) return null;
  const digits = q.replace(/\D/g, '').replace(q.trim().startsWith('+61') ? /^61/ : /^0/, '');
  return digits.length >= 4 ? digits : null;
}

/**
 * Families (never staff accounts) whose e-mail, name or phone contains `q`, or who have a booking
 * whose reference does, plus the owner of `bookingId` (a check-in code resolved by the caller).
 * A booking found by reference or code counts only at the caller's locations (`locationIds`, empty
 * = all), and a caller scoped to some locations finds only families with an online booking there. Each arm is served
 * by a trigram GIN index (migrations 0015, 0024); exact e-mail and
 * reference matches come first, then the most recently created accounts.
 */
export async function searchFamilies(
  db: DbOrTx,
  q: string,
  bookingId: string | null,
  limit: number,
  locationIds: string[],
): Promise<FamilyRow[]> {
  const like = containing(q);
  const exact = q.toLowerCase();
  const digits = phoneDigits(q);
  const atLocations =
    locationIds.length === 0
      ? sql`true`
      : sql`exists (select 1 from slots s where s.id = b.slot_id and s.location_id =
any(${sql.param(locationIds)}::uuid[]))`;
  // Least privilege (decision 0079): support scoped to some locations finds only families with an
  // online booking there, the same bookings it is shown; a family that never booked there is no
  // business of theirs. Support covering every location (empty list) finds any family.
  const knownHere =
    locationIds.length === 0
      ? sql`true`
      : sql`exists (select 1 from bookings k join slots ks on ks.id = k.slot_id where k.user_id = u.id and k.source
= 'online' and ks.location_id = any(${sql.param(locationIds)}::uuid[]))`;
  const result = await db.execute(sql`
    with hits as (
      select u.id from users u
      where u.email ilike ${like} or (u.first_name || ' ' || u.last_name) ilike ${like} or u.phone ilike ${like}
      union
      select u.id from users u where ${digits}::text is not null and regexp_replace(coalesce(u.phone, ''), '[^0-9]',
      '', 'g') like ${`%${digits ?? ''}%`}
      union
      select b.user_id from bookings b where b.reference ilike ${like} and ${atLocations}
      union
      select b.user_id from bookings b where b.id = ${bookingId}::uuid and ${atLocations}
    )
    select u.id, u.email, u.first_name, u.last_name, u.phone
    from users u join hits on hits.id = u.id
    where not u.is_staff and u.deleted_at is null -- a deleted account is found by nothing (decision 0058)
      and ${knownHere}
    order by (u.email = ${exact}) desc,
      exists (select 1 from bookings x where x.user_id = u.id and lower(x.reference) = ${exact}) desc,
      u.created_at desc
    limit ${limit}`);
  return result.rows.map((r) => ({
    id: r.id as string,
    email: r.email as string,
    firstName: r.first_name as string,
    lastName: r.last_name as string,
    phone: (r.phone as string | null) ?? null,
  }));
}

/** Each family's bookings at the caller's locations (empty = all), newest session first, at most `perFamily` each. */
export async function bookingIdsOfFamilies(
  db: DbOrTx,
  userIds: string[],
  perFamily: number,
  locationIds: string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return out;
  const result = await db.execute(sql`
    select user_id, id from (
      select b.user_id, b.id, row_number() over (partition by b.user_id order by s.start_at desc) as n
      from bookings b join slots s on s.id = b.slot_id
      where b.user_id = any(${sql.param(userIds)}::uuid[]) and b.source = 'online'
        and (${locationIds.length === 0} or s.location_id = any(${sql.param(locationIds)}::uuid[]))
    ) ranked where n <= ${perFamily} order by user_id, n`);
  for (const r of result.rows) out.get(r.user_id as string)?.push(r.id as string);
  return out;
}

export interface SentEmailRow {
  subject: string;
  status: 'pending' | 'sent' | 'failed';
  sentAt: Date | null;
  createdAt: Date;
}

/** Mail to the address, less what an earlier holder of it took along when it moved away (decision 0068). */
export async function emailsTo(db: DbOrTx, address: string, limit: number): Promise<SentEmailRow[]> {
  const result = await db.execute(sql`
    select subject, status, sent_at, created_at from mail_outbox where to_address = ${address} and user_id is null
    order by created_at desc limit ${limit}`);
  return result.rows.map((r) => ({
    subject: r.subject as string,
    status: r.status as SentEmailRow['status'],
    sentAt: r.sent_at ? new Date(r.sent_at as string) : null,
    createdAt: new Date(r.created_at as string),
  }));
}

export async function slotForMove(
  db: DbOrTx,
  slotId: string,
): Promise<{ id: string; slotTypeId: string; locationId: string; startAt: Date } | undefined> {
  const result = await db.execute(
    sql`select id, slot_type_id, location_id, start_at from slots where id = ${slotId}::uuid and kind = 'session'`,
  );
  const r = result.rows[0];
  return r
    ? {
        id: r.id as string,
        slotTypeId: r.slot_type_id as string,
        locationId: r.location_id as string,
        startAt: new Date(r.start_at as string),
      }
    : undefined;
}
