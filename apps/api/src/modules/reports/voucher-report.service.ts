import type { VoucherReport, VoucherReportQuery } from '@kringle/contracts/voucher-reports';
import { REPORT_MAX_DAYS } from '@kringle/contracts/reports';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../lib/errors';
import { VOUCHER_TIME_ZONE } from '../vouchers/voucher-view';
import { outstandingVoucherCents, voucherDays, type VoucherDayRow } from './voucher-report.repository';

const DAY_MS = 86_400_000;

/** GET /staff/reports/vouchers: the vouchers' money by day, and what is still owed on them now. */
export async function voucherReport(
  deps: Pick<FastifyInstance, 'db' | 'clock'>,
  q: VoucherReportQuery,
): Promise<VoucherReport> {
  const days = (Date.parse(q.to) - Date.parse(q.from)) / DAY_MS + 1;
  if (days < 1) throw errors.invalidField('to', 'The last day is before the first.');
  if (days > REPORT_MAX_DAYS) throw errors.invalidField('to', `A report covers at most ${REPORT_MAX_DAYS} days.`);
  const now = deps.clock.now();
  const items = await voucherDays(deps.db, { from: q.from, to: q.to, timeZone: VOUCHER_TIME_ZONE, now });
  const sum = (k: Exclude<keyof VoucherDayRow, 'date'>) => items.reduce((n, r) => n + r[k], 0);
  return {
    items,
    totals: {
      soldCount: sum('soldCount'),
      soldCents: sum('soldCents'),
      redeemedCents: sum('redeemedCents'),
      expiredCents: sum('expiredCents'),
      cancelledCents: sum('cancelledCents'),
      outstandingCents: await outstandingVoucherCents(deps.db, now),
    },
  };
}
