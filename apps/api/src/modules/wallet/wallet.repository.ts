import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';

/** A booking's pass version (its updated_at: every change of the booking is one of the pass), and its owner. */
export async function passState(
  db: DbOrTx,
  bookingId: string,
): Promise<{ userId: string; status: string; updatedAt: Date } | null> {
  const { rows } = await db.execute(
    sql`select user_id, status, updated_at from bookings where id = ${bookingId}::uuid and source = 'online'`,
  );
  const r = rows[0] as { user_id: string; status: string; updated_at: string | Date } | undefined;
  return r ? { userId: r.user_id, status: r.status, updatedAt: new Date(r.updated_at) } : null;
}

/** Registers (or refreshes the push token of) a device for a pass: true when it is new. */
export async function registerDevice(db: Db, deviceId: string, bookingId: string, pushToken: string): Promise<boolean> {
  const { rows } = await db.execute(sql`
    insert into wallet_registrations (device_library_id, booking_id, push_token, pushed_version)
    select ${deviceId}, b.id, ${pushToken}, b.updated_at from bookings b where b.id = ${bookingId}::uuid
    on conflict (device_library_id, booking_id) do update set push_token = excluded.push_token
    returning (xmax = 0) as created`);
  return (rows[0] as { created: boolean } | undefined)?.created ?? false;
}

export async function unregisterDevice(db: Db, deviceId: string, bookingId: string): Promise<void> {
  await db.execute(
    sql`delete from wallet_registrations where device_library_id = ${deviceId} and booking_id = ${bookingId}::uuid`,
  );
}

/**
 * The device's passes changed after `since` (null: all of them), and the newest version among
 * them as the next tag. Versions are compared in microseconds, as PostgreSQL keeps them.
 */
export async function passesUpdatedSince(
  db: Db,
  deviceId: string,
  since: bigint | null,
): Promise<{ serials: string[]; lastUpdated: string | null }> {
  const { rows } = await db.execute(sql`
    select b.id, (extract(epoch from b.updated_at) * 1000000)::bigint::text as version
    from wallet_registrations r join bookings b on b.id = r.booking_id
    where r.device_library_id = ${deviceId}
      and (${since?.toString() ?? null}::bigint is null
        or (extract(epoch from b.updated_at) * 1000000)::bigint > ${since?.toString() ?? null}::bigint)`);
  const list = rows as { id: string; version: string }[];
  if (!list.length) return { serials: [], lastUpdated: null };
  const newest = list.reduce((max, r) => (BigInt(r.version) > max ? BigInt(r.version) : max), 0n);
  return { serials: list.map((r) => r.id), lastUpdated: newest.toString() };
}

export interface DuePush {
  deviceId: string;
  bookingId: string;
  pushToken: string;
  version: Date;
}

/**
 * Registrations whose pass changed since the last push, locked with SKIP LOCKED (several
 * processes never push the same one), in the caller's transaction.
 */
export async function lockDuePushes(tx: DbOrTx, limit = 100): Promise<DuePush[]> {
  const { rows } = await tx.execute(sql`
    select r.device_library_id, r.booking_id, r.push_token, b.updated_at
    from wallet_registrations r join bookings b on b.id = r.booking_id
    where r.pushed_version is null or b.updated_at > r.pushed_version
    limit ${limit} for update of r skip locked`);
  return (rows as { device_library_id: string; booking_id: string; push_token: string; updated_at: string }[]).map(
    (r) => ({
      deviceId: r.device_library_id,
      bookingId: r.booking_id,
      pushToken: r.push_token,
      version: new Date(r.updated_at),
    }),
  );
}

export async function markPushed(tx: DbOrTx, p: DuePush): Promise<void> {
  await tx.execute(sql`
    update wallet_registrations set pushed_version = ${p.version.toISOString()}::timestamptz
    where device_library_id = ${p.deviceId} and booking_id = ${p.bookingId}::uuid`);
}

/** The save link was given: from now on each change of the booking goes to Google (once, if it is new). */
export async function rememberGoogleObject(db: DbOrTx, bookingId: string): Promise<void> {
  await db.execute(sql`
    insert into google_wallet_objects (booking_id, synced_version)
    select b.id, b.updated_at from bookings b where b.id = ${bookingId}::uuid
    on conflict (booking_id) do nothing`);
}

/** Google objects whose booking changed since Google last got it, locked (SKIP LOCKED) in the caller's transaction. */
export async function lockDueGoogleObjects(tx: DbOrTx, limit = 100): Promise<{ bookingId: string; version: Date }[]> {
  const { rows } = await tx.execute(sql`
    select g.booking_id, b.updated_at from google_wallet_objects g join bookings b on b.id = g.booking_id
    where b.updated_at > g.synced_version
    limit ${limit} for update of g skip locked`);
  return (rows as { booking_id: string; updated_at: string }[]).map((r) => ({
    bookingId: r.booking_id,
    version: new Date(r.updated_at),
  }));
}

export async function markGoogleSynced(tx: DbOrTx, bookingId: string, version: Date): Promise<void> {
  await tx.execute(sql`
    update google_wallet_objects set synced_version = ${version.toISOString()}::timestamptz
    where booking_id = ${bookingId}::uuid`);
}
