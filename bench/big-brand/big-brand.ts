import { sql } from 'drizzle-orm';
import { addDays } from '@kringle/contracts/dates';
import type { Db } from '../../apps/api/src/db/client';

/**
 * A big brand straight into the database (issue 35's scale): LOCATIONS locations × DAYS days of
 * 5-minute sessions from 10:00 to 17:30, FAMILIES families and BOOKINGS paid bookings on random
 * sessions, half of the season past and half to come. Of the bookings: 8% walk-ins, 10% cancelled
 * with a full refund, 5% of the rest partly refunded; some sessions held, some closed. All of it
 * in a few set-based statements (a minute or so on 2 shared cores).
 */
export const BIG_BRAND = { locations: 50, days: 40, sessionsPerDay: 90, families: 20_000, bookings: 150_000 };

export async function loadBigBrand(
  db: Db,
  size = BIG_BRAND,
): Promise<{ from: string; to: string; locationId: string }> {
  const zone = 'Australia/Sydney';
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
  const from = addDays(today, -Math.floor(size.days / 2));
  const to = addDays(from, size.days - 1);
  await db.execute(sql`
    insert into locations (slug, name, address, suburb, state, timezone, season_start, season_end, sort_order)
    select 'big-' || i, 'Big Brand ' || lpad(i::text, 2, '0'), i || ' Main Street', 'Town', 'NSW', ${zone},
    ${from}::date, ${to}::date, 100 + i
    from generate_series(1, ${size.locations}) i`);
  await db.execute(sql`
    insert into slot_types (location_id, slug, name, description, duration_minutes)
    select id, 'standard', 'Santa photos', 'Photos with Santa', 5 from locations where slug like 'big-%'`);
  await db.execute(sql`
    insert into slots (location_id, slot_type_id, kind, start_at, end_at)
    select l.id, st.id, 'session', t, t + interval '5 minutes'
    from locations l join slot_types st on st.location_id = l.id
    cross join generate_series(0, ${size.days - 1}) d cross join generate_series(0, ${size.sessionsPerDay - 1}) n
    cross join lateral (select ((${from}::date + d) + time '10:00' + n * interval '5 minutes') at time zone ${zone} as
    t) s
    where l.slug like 'big-%'`);
  await db.execute(sql`
    insert into users (email, password_hash, first_name, last_name, email_verified_at)
    select 'big-family-' || i || '@bench.kringle.test', 'not-a-real-hash', 'Big', 'Family', now() from
    generate_series(1, ${size.families}) i`);
  await db.execute(sql`
    create temp table picks as
    select s.id as slot_id, s.location_id, s.slot_type_id, s.start_at, row_number() over () as n,
      (array[2995, 3995, 5490, 7990])[1 + floor(random() * 4)::int] as amount, random() as r
    from (select * from slots where location_id in (select id from locations where slug like 'big-%') order by
    random() limit ${size.bookings}) s`);
  await db.execute(sql`
    create temp table family_ids as select id, row_number() over () as n from users where email like 'big-family-%'`);
  await db.execute(sql`
    insert into bookings (reference, user_id, location_id, slot_id, slot_type_id, status, source, items, amount_cents,
    confirmed_at, cancelled_at)
    select 'BB-' || p.n, f.id, p.location_id, p.slot_id, p.slot_type_id,
      case when p.r < 0.10 then 'cancelled' else 'completed' end, case when p.r > 0.92 then 'walkin' else 'online' end,
      jsonb_build_array(jsonb_build_object('id', gen_random_uuid(), 'type', 'package', 'name', case p.amount when 2995
      then 'Digital Memories' when 3995 then 'Classic Print' when 5490 then 'Family Keepsake' else 'Deluxe Sleigh' end,
        'quantity', 1, 'unitPriceCents', p.amount, 'totalCents', p.amount)),
      p.amount, p.start_at - interval '3 days', case when p.r < 0.10 then p.start_at - interval '1 day' end
    from picks p join family_ids f on f.n = 1 + (p.n % ${size.families})`);
  await db.execute(sql`
    insert into orders (booking_id, user_id, status, items, amount_cents, refunded_cents, paid_at, refunded_at)
    select b.id, b.user_id, case when b.status = 'cancelled' then 'refunded' else 'paid' end, b.items, b.amount_cents,
      case when b.status = 'cancelled' then b.amount_cents else 0 end,
      -- Walk-ins pay at the session; online families up to three weeks before.
      case when b.source = 'walkin' then s.start_at else s.start_at - (random() * interval '21 days') end,
      b.cancelled_at
    from bookings b join slots s on s.id = b.slot_id where b.reference like 'BB-%'`);
  await db.execute(sql`
    insert into refunds (order_id, booking_id, amount_cents, status, reason, completed_at)
    select o.id, o.booking_id, case when o.status = 'refunded' then o.amount_cents else 1000 end, 'succeeded',
    'bench', o.paid_at + interval '1 day'
    from orders o join bookings b on b.id = o.booking_id
    where b.reference like 'BB-%' and (o.status = 'refunded' or random() < 0.05)`);
  await db.execute(sql`
    update slots s set booking_id = b.id from bookings b where b.slot_id = s.id and b.status = 'completed' and
    b.reference like 'BB-%'`);
  await db.execute(sql`
    update bookings set checked_in_at = confirmed_at + interval '3 days', no_show_at = null
    where reference like 'BB-%' and status = 'completed' and confirmed_at + interval '3 days' < now() and random() <
    0.9`);
  await db.execute(sql`
    update bookings set no_show_at = confirmed_at + interval '3 days'
    where reference like 'BB-%' and status = 'completed' and checked_in_at is null and confirmed_at + interval
    '3 days' < now()`);
  await db.execute(sql`
    update slots set blocked = true where booking_id is null and location_id in (select id from locations where slug
    like 'big-%') and random() < 0.05`);
  await db.execute(sql`
    update slots set hold_reservation_id = gen_random_uuid(), hold_expires_at = now() + interval '10 minutes'
    where booking_id is null and not blocked and start_at > now() and location_id in (select id from locations where
    slug like 'big-%') and random() < 0.02`);
  await db.execute(sql`analyze`);
  const locationId = (await db.execute(sql`select id from locations where slug = 'big-1'`)).rows[0]!.id as string;
  return { from, to, locationId };
}
