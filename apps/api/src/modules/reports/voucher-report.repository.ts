import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

export interface VoucherDayRow {
  date: string;
  soldCount: number;
  soldCents: number;
  redeemedCents: number;
  expiredCents: number;
  cancelledCents: number;
}

/**
 * A row per day (in `timeZone`) with any voucher money: sales from the vouchers' payments, the rest
 * from their ledgers. An expiry counts the balance left on the voucher when it lapsed.
 */
export async function voucherDays(
  db: DbOrTx,
  range: { from: string; to: string; timeZone: string; now: Date },
): Promise<VoucherDayRow[]> {
  const { from, to, timeZone } = range;
  const result = await db.execute(sql`
    with moves as (
      select (v.paid_at at time zone ${timeZone})::date as day, 1 as sold, v.amount_cents as sold_cents,
        0 as redeemed, 0 as expired, 0 as cancelled
      from vouchers v where v.paid_at is not null and v.status in ('paid', 'cancelled')
      union all
      select (e.created_at at time zone ${timeZone})::date, 0, 0,
        case when e.reason in ('spent', 'returned') then -e.cents else 0 end, 0,
        case when e.reason = 'cancelled' then -e.cents else 0 end
      from voucher_entries e where e.reason in ('spent', 'returned', 'cancelled')
      union all
      select (v.expires_at at time zone ${timeZone})::date, 0, 0, 0,
        (select coalesce(sum(e.cents), 0) from voucher_entries e where e.voucher_id = v.id), 0
      from vouchers v where v.status = 'paid' and v.expires_at <= ${range.now.toISOString()}::timestamptz
    )
    select day::text as date, sum(sold)::int as sold_count, sum(sold_cents)::bigint as sold_cents,
      sum(redeemed)::bigint as redeemed, sum(expired)::bigint as expired, sum(cancelled)::bigint as cancelled
    from moves where day between ${from}::date and ${to}::date
    group by day order by day`);
  return result.rows.map((r) => ({
    date: r.date as string,
    soldCount: Number(r.sold_count),
    soldCents: Number(r.sold_cents),
    redeemedCents: Number(r.redeemed),
    expiredCents: Number(r.expired),
    cancelledCents: Number(r.cancelled),
  }));
}

/** What every live voucher (paid, not expired at `now`) still holds. */
export async function outstandingVoucherCents(db: DbOrTx, now: Date): Promise<number> {
  const result = await db.execute(sql`
    select coalesce(sum(e.cents), 0)::bigint as cents from voucher_entries e join vouchers v on v.id = e.voucher_id
    where v.status = 'paid' and v.expires_at > ${now.toISOString()}::timestamptz`);
  return Number(result.rows[0]!.cents);
}
