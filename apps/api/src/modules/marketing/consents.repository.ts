import { sql } from 'drizzle-orm';
import type { FamilyConsentKind } from '@kringle/contracts/family-consents';
import type { DbOrTx } from '../../db/client';

export type WithdrawnVia = 'account' | 'unsubscribe' | 'deletion' | 'renewed' | 'expired';

export interface ConsentRow {
  id: string;
  kind: FamilyConsentKind;
  wordingVersion: string;
  givenAt: Date;
  expiresAt: Date | null;
}

const toRow = (r: Record<string, unknown>): ConsentRow => ({
  id: r.id as string,
  kind: r.kind as FamilyConsentKind,
  wordingVersion: r.wording_version as string,
  givenAt: new Date(r.given_at as string),
  expiresAt: r.expires_at ? new Date(r.expires_at as string) : null,
});

/** The family's consents not withdrawn (an expired one included: the caller compares with its clock). */
export async function liveConsents(db: DbOrTx, userId: string): Promise<ConsentRow[]> {
  const { rows } = await db.execute(sql`
    select id, kind, wording_version, given_at, expires_at from family_consents
    where user_id = ${userId}::uuid and withdrawn_at is null`);
  return rows.map(toRow);
}

/** The live, unexpired consent of one kind, or null: what every use of it must ask first. */
export async function liveConsent(
  db: DbOrTx,
  userId: string,
  kind: FamilyConsentKind,
  now: Date,
): Promise<ConsentRow | null> {
  const { rows } = await db.execute(sql`
    select id, kind, wording_version, given_at, expires_at from family_consents
    where user_id = ${userId}::uuid and kind = ${kind} and withdrawn_at is null
      and (expires_at is null or expires_at > ${now.toISOString()}::timestamptz)`);
  return rows[0] ? toRow(rows[0]) : null;
}

/** Stamps the live consent of a kind withdrawn; answers the row it ended, or null when there was none. */
export async function endConsent(
  db: DbOrTx,
  userId: string,
  kind: FamilyConsentKind,
  via: WithdrawnVia,
  now: Date,
): Promise<ConsentRow | null> {
  const { rows } = await db.execute(sql`
    update family_consents set withdrawn_at = ${now.toISOString()}::timestamptz, withdrawn_via = ${via}
    where user_id = ${userId}::uuid and kind = ${kind} and withdrawn_at is null
    returning id, kind, wording_version, given_at, expires_at`);
  return rows[0] ? toRow(rows[0]) : null;
}

/** Records a consent given (the caller has ended any earlier one in the same transaction). */
export async function insertConsent(
  db: DbOrTx,
  c: { userId: string; kind: FamilyConsentKind; wordingVersion: string; givenAt: Date; expiresAt: Date | null },
): Promise<ConsentRow> {
  const { rows } = await db.execute(sql`
    insert into family_consents (user_id, kind, wording_version, given_at, expires_at)
    values (${c.userId}::uuid, ${c.kind}, ${c.wordingVersion}, ${c.givenAt.toISOString()}::timestamptz,
      ${c.expiresAt?.toISOString() ?? null}::timestamptz)
    returning id, kind, wording_version, given_at, expires_at`);
  return toRow(rows[0]!);
}

/** Locks the family's row, so two taps at once on one choice are applied one after the other. */
export async function lockFamily(db: DbOrTx, userId: string): Promise<{ email: string } | null> {
  const { rows } = await db.execute(
    sql`select email from users where id = ${userId}::uuid and deleted_at is null for update`,
  );
  return (rows[0] as { email: string } | undefined) ?? null;
}
