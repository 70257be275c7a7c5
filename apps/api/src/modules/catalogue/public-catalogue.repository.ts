import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

export interface PublicTypeRow {
  locationId: string;
  id: string;
  name: string;
  durationMinutes: number;
  fromPriceCents: number;
  /** Its last session's start: after it the type has nothing left to book. */
  lastStartAt: Date;
}

/** The live season's version (0 before any): every season change records a new one (season-versions.repository). */
export async function liveSeasonVersion(db: DbOrTx): Promise<number> {
  const { rows } = await db.execute(sql`select coalesce(max(version), 0)::int as version from season_versions`);
  return Number(rows[0]?.version ?? 0);
}

/**
 * Session types with sessions ahead and the cheapest package offered for them: all a booking
 * needs is one package (API.md "Cart": at least one; add-ons are optional, prices include GST),
 * so that package's price is the least a family can pay. A type no package is offered for cannot
 * be booked and is left out.
 */
export async function bookableTypes(db: DbOrTx, now: Date): Promise<PublicTypeRow[]> {
  const { rows } = await db.execute(sql`
    select st.location_id, st.id, st.name, st.duration_minutes, price.cents, ahead.last_start
    from slot_types st
    cross join lateral (select max(s.start_at) as last_start from slots s
      where s.slot_type_id = st.id and s.kind = 'session' and s.start_at > ${now.toISOString()}::timestamptz) ahead
    cross join lateral (select min(p.price_cents)::int as cents from packages p
      where p.active and (p.slot_type_slugs is null or jsonb_typeof(p.slot_type_slugs) = 'null' or p.slot_type_slugs ?
      st.slug)) price
    where ahead.last_start is not null and price.cents is not null
    order by st.sort_order, st.name`);
  return rows.map((r) => ({
    locationId: r.location_id as string,
    id: r.id as string,
    name: r.name as string,
    durationMinutes: Number(r.duration_minutes),
    fromPriceCents: Number(r.cents),
    lastStartAt: new Date(r.last_start as string),
  }));
}
