import type { AuditAbout } from '@kringle/contracts/audit';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { AuditRow } from './audit-list.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ids = (values: unknown[]) => [
  ...new Set(values.flat().filter((v): v is string => typeof v === 'string' && UUID.test(v))),
];

/**
 * What a page of entries is about (issue 53 item 9), read as the trail is read: three queries per
 * page, not per entry. The family and the location are as they are now; the trail itself keeps
 * only ids, so an erased family's name is not brought back (its account is gone).
 */
export async function aboutOf(db: DbOrTx, rows: AuditRow[]): Promise<Map<string, AuditAbout>> {
  const bookingIds = ids(rows.map((r) => r.bookingId));
  const familyIds = ids(rows.filter((r) => r.actor.kind === 'family').map((r) => r.actor.id));
  const slotIds = ids(rows.flatMap((r) => [r.slotId, r.before.slotId, r.after.slotId]));
  const locationIds = ids(
    rows.flatMap(
      (r) =>
        [
          r.before.locationId,
          r.after.locationId,
          r.before.locationIds,
          r.after.locationIds,
          r.before.preferredLocationId,
          r.after.preferredLocationId,
        ] as unknown[],
    ),
  );
  const uuids = (list: string[]) => sql`${`{${list.join(',')}}`}::uuid[]`;

  const bookings = new Map<string, { reference: string; email: string | null; name: string; locationId: string }>();
  if (bookingIds.length) {
    const found =
      await db.execute(sql`select b.id, b.reference, b.location_id, u.email, concat_ws(' ', u.first_name, u.last_name)
      as name
      from bookings b left join users u on u.id = b.user_id where b.id = any(${uuids(bookingIds)})`);
    for (const r of found.rows)
      bookings.set(r.id as string, {
        reference: r.reference as string,
        email: (r.email as string | null) ?? null,
        name: (r.name as string | null) ?? '',
        locationId: r.location_id as string,
      });
  }
  const families = new Map<string, { email: string | null; name: string }>();
  if (familyIds.length) {
    const found = await db.execute(
      sql`select id, email, concat_ws(' ', first_name, last_name) as name from users where id =
any(${uuids(familyIds)})`,
    );
    for (const r of found.rows)
      families.set(r.id as string, {
        email: (r.email as string | null) ?? null,
        name: (r.name as string | null) ?? '',
      });
  }
  const sessions = new Map<string, { startAt: string; locationId: string }>();
  if (slotIds.length) {
    const found = await db.execute(sql`select id, start_at, location_id from slots where id = any(${uuids(slotIds)})`);
    for (const r of found.rows)
      sessions.set(r.id as string, {
        startAt: new Date(r.start_at as string).toISOString(),
        locationId: r.location_id as string,
      });
  }
  const wantedLocations = ids([
    ...locationIds,
    ...[...bookings.values()].map((b) => b.locationId),
    ...[...sessions.values()].map((s) => s.locationId),
  ]);
  const locations = new Map<string, { name: string; timezone: string }>();
  if (wantedLocations.length) {
    const found = await db.execute(
      sql`select id, name, timezone from locations where id = any(${uuids(wantedLocations)})`,
    );
    for (const r of found.rows)
      locations.set(r.id as string, { name: r.name as string, timezone: r.timezone as string });
  }

  const about = new Map<string, AuditAbout>();
  for (const r of rows) {
    const booking = r.bookingId ? bookings.get(r.bookingId) : undefined;
    const family = booking
      ? { email: booking.email, name: booking.name }
      : r.actor.kind === 'family' && r.actor.id
        ? (families.get(r.actor.id) ?? null)
        : null;
    const named = ids([r.slotId, r.before.slotId, r.after.slotId]);
    const locationId =
      booking?.locationId ??
      (r.slotId ? sessions.get(r.slotId)?.locationId : undefined) ??
      (typeof r.after.locationId === 'string' ? r.after.locationId : undefined);
    const mentioned = ids([
      r.before.locationId,
      r.after.locationId,
      r.before.locationIds,
      r.after.locationIds,
      r.before.preferredLocationId,
      r.after.preferredLocationId,
    ] as unknown[]);
    about.set(r.id, {
      reference: booking?.reference ?? null,
      family,
      location: locationId ? (locations.get(locationId) ?? null) : null,
      sessions: Object.fromEntries(named.flatMap((id) => (sessions.has(id) ? [[id, sessions.get(id)!.startAt]] : []))),
      locations: Object.fromEntries(
        mentioned.flatMap((id) => (locations.has(id) ? [[id, locations.get(id)!.name]] : [])),
      ),
    });
  }
  return about;
}
