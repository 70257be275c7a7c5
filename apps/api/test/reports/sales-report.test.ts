import { addDays, zonedToInstant } from '@kringle/contracts/dates';
import { gstOf } from '@kringle/contracts/money';
import type { SalesReport } from '@kringle/contracts/reports';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContractError } from '../security/security-fixtures';
import { createPerson, FAMILY_AS_SENT, SYDNEY, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';
import { sell, settleRefunds } from './report-fixtures';

const BRISBANE = 'Australia/Brisbane';

/**
 * Issue 35's sales report (decision 0057) on two days of the demo season: online sales at two
 * locations, walk-ins, a partial refund, a full one and one still pending; GST as the invoices print it.
 */
describe('sales report', () => {
  let w: StaffDay;
  let manager: Person;
  let brisbaneManager: Person;
  let day1: string;
  const sold: { id: string; orderId: string; owner: Person }[] = [];
  const get = async (query: string, who: Person = manager) => w.call('GET', `/staff/reports/sales${query}`, who);
  const report = async (query: string, who?: Person) => {
    const res = await get(query, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as SalesReport;
  };

  beforeAll(async () => {
    w = await staffDay();
    day1 = addDays(w.day, -1);
    manager = await createPerson(
      w.t.db,
      true,
      { firstName: 'Mo', lastName: 'Manager' },
      { role: 'manager', mfaEnrolled: true },
    );
    brisbaneManager = await createPerson(
      w.t.db,
      true,
      { firstName: 'Bri', lastName: 'Manager' },
      { role: 'manager', mfaEnrolled: true, locationIds: [w.brisbane] },
    );
    const support = await createPerson(
      w.t.db,
      true,
      { firstName: 'Sam', lastName: 'Support' },
      { role: 'support', mfaEnrolled: true },
    );
    w.clock.set(zonedToInstant(w.day, '09:45', SYDNEY));
    const brisbaneSession = (await w.call('GET', `/staff/run-sheet?locationId=${w.brisbane}&date=${w.day}`, manager))
      .json()
      .items.find((i: { slot: { kind: string } }) => i.slot.kind === 'session').slot.id as string;
    const online = [
      {
        slotId: w.sessions[0]!.id,
        amountCents: 3995,
        paidAt: zonedToInstant(day1, '10:00', SYDNEY),
        packageNames: ['Classic Print'],
      },
      {
        slotId: w.sessions[1]!.id,
        amountCents: 5490,
        paidAt: zonedToInstant(day1, '11:00', SYDNEY),
        packageNames: ['Deluxe Sleigh'],
      },
      // 00:30 in Sydney is the day before in UTC: it counts on Sydney's day.
      {
        slotId: w.sessions[2]!.id,
        amountCents: 2995,
        paidAt: zonedToInstant(w.day, '00:30', SYDNEY),
        packageNames: ['Classic Print'],
      },
      {
        slotId: w.sessions[3]!.id,
        amountCents: 1506,
        paidAt: zonedToInstant(w.day, '09:00', SYDNEY),
        packageNames: ['Deluxe Sleigh', 'Classic Print'],
      },
      {
        slotId: brisbaneSession,
        amountCents: 4321,
        paidAt: zonedToInstant(w.day, '09:30', BRISBANE),
        packageNames: ['Classic Print'],
      },
      // Outside the range: two days before.
      {
        slotId: w.sessions[4]!.id,
        amountCents: 9999,
        paidAt: zonedToInstant(addDays(w.day, -2), '12:00', SYDNEY),
        packageNames: ['Classic Print'],
      },
    ];
    for (const sale of online) {
      const owner = await createPerson(w.t.db, false);
      sold.push({ ...(await sell(w, owner, sale.slotId, sale)), owner });
    }
    for (const slot of [w.sessions[10]!, w.sessions[11]!]) {
      const res = await w.call('POST', '/staff/walk-ins', w.elf, {
        slotId: slot.id,
        firstName: 'Ada',
        lastName: 'Walker',
        details: FAMILY_AS_SENT,
        packages: [{ id: w.classic, quantity: 1 }],
        addOns: [],
        paidWith: 'cash',
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const reason = 'Family phoned: photos were late';
    // A partial refund settled by Stripe, and a second one still pending (not money back yet).
    expect(
      (await w.call('POST', `/staff/orders/${sold[2]!.orderId}/refunds`, support, { amountCents: 1000, reason }))
        .statusCode,
    ).toBe(201);
    await settleRefunds(w, sold[2]!.id);
    expect(
      (await w.call('POST', `/staff/orders/${sold[2]!.orderId}/refunds`, support, { amountCents: 500, reason }))
        .statusCode,
    ).toBe(201);
    // A full refund.
    expect(
      (await w.call('POST', `/staff/bookings/${sold[3]!.id}/cancel`, support, { reason, refund: 'full' })).statusCode,
    ).toBe(200);
    await settleRefunds(w, sold[3]!.id);
  });
  afterAll(async () => w?.t.close());

  const figures = (bookings: number, grossCents: number, gstCents: number, refundsCents = 0, refundsGstCents = 0) => ({
    bookings,
    grossCents,
    gstCents,
    refundsCents,
    refundsGstCents,
    netCents: grossCents - refundsCents,
    // Chargebacks: none in this world (disputes/disputes.test.ts has them).
    disputedCents: 0,
    disputesLostCents: 0,
  });
  const NONE = figures(0, 0, 0);

  it(
    "sums by day (each location's own calendar day), with walk-ins and online apart and refunds against their " +
      'orders',
    async () => {
      const r = await report(`?from=${day1}&to=${w.day}&groupBy=day`);
      expect(r.items).toEqual([
        { key: day1, label: day1, ...figures(2, 9485, 862), channels: { online: figures(2, 9485, 862), walkin: NONE } },
        {
          key: w.day,
          label: w.day,
          ...figures(5, 16812, 1528, 2506, 228),
          channels: { online: figures(3, 8822, 802, 2506, 228), walkin: figures(2, 7990, 726) },
        },
      ]);
      expect(r.totals).toEqual({
        ...figures(7, 26297, 2390, 2506, 228),
        channels: { online: figures(5, 18307, 1664, 2506, 228), walkin: figures(2, 7990, 726) },
      });
      // Each invoice's GST rounded, then summed: rounding the total would be a cent off here.
      expect(gstOf(r.totals.grossCents)).not.toBe(r.totals.gstCents);
    },
  );

  it('sums by location and by package, with the same totals', async () => {
    const byDay = await report(`?from=${day1}&to=${w.day}`);
    const byLocation = await report(`?from=${day1}&to=${w.day}&groupBy=location`);
    expect(byLocation.items.map((i) => [i.key, i.label, i.bookings, i.grossCents, i.netCents])).toEqual([
      [w.sydney, 'Kringle Sydney, Pitt Street', 6, 21976, 19470],
      [w.brisbane, 'Kringle Brisbane, Queen Street', 1, 4321, 4321],
    ]);
    const byPackage = await report(`?from=${day1}&to=${w.day}&groupBy=package`);
    expect(
      byPackage.items.map((i) => [i.key, i.bookings, i.grossCents, i.refundsCents, i.channels.walkin.bookings]),
    ).toEqual([
      ['Classic Print', 5, 19301, 1000, 2],
      ['Deluxe Sleigh', 1, 5490, 0, 0],
      ['Classic Print + Deluxe Sleigh', 1, 1506, 1506, 0],
    ]);
    expect(byLocation.totals).toEqual(byDay.totals);
    expect(byPackage.totals).toEqual(byDay.totals);
  });

  it('agrees with the tax invoices and refund receipts to the cent', async () => {
    const r = await report(`?from=${day1}&to=${w.day}`);
    const amount = (text: string, label: string) => {
      const m = new RegExp(`${label}\\s*\\$([\\d,]+\\.\\d\\d)`).exec(text);
      if (!m) throw new Error(`no "${label}" in ${text}`);
      return Math.round(Number(m[1]!.replaceAll(',', '')) * 100);
    };
    const pdfText = async (res: { statusCode: number; body: string; rawPayload: Buffer }) => {
      expect(res.statusCode, res.body).toBe(200);
      return (await new PDFParse({ data: res.rawPayload }).getText()).text;
    };
    const ids = (
      await w.t.db.execute<{ id: string }>(
        `select b.id from bookings b join orders o on o.booking_id = b.id where o.paid_at >= ` +
          `'${zonedToInstant(day1, '00:00', SYDNEY).toISOString()}'`,
      )
    ).rows;
    let invoiced = 0;
    for (const { id } of ids)
      invoiced += amount(await pdfText(await w.call('GET', `/staff/bookings/${id}/receipt`, manager)), 'GST included');
    let refunded = 0;
    for (const s of [sold[2]!, sold[3]!])
      refunded += amount(
        await pdfText(await w.call('GET', `/orders/${s.id}/orders/${s.orderId}/refund-receipt`, s.owner)),
        'GST refunded',
      );
    expect(ids).toHaveLength(7);
    expect(invoiced).toBe(r.totals.gstCents);
    expect(refunded).toBe(r.totals.refundsGstCents);
  });

  it('shows a manager scoped to Brisbane only Brisbane, and refuses Sydney with LOCATION_FORBIDDEN', async () => {
    const r = await report(`?from=${day1}&to=${w.day}&groupBy=location`, brisbaneManager);
    expect(r.items.map((i) => i.key)).toEqual([w.brisbane]);
    expect(r.totals.grossCents).toBe(4321);
    expect((await report(`?from=${day1}&to=${w.day}&locationId=${w.brisbane}`, brisbaneManager)).totals.bookings).toBe(
      1,
    );
    expectContractError(
      await get(`?from=${day1}&to=${w.day}&locationId=${w.sydney}`, brisbaneManager),
      403,
      'LOCATION_FORBIDDEN',
    );
    expectContractError(
      await w.call('GET', `/staff/reports/sales.csv?from=${day1}&to=${w.day}&locationId=${w.sydney}`, brisbaneManager),
      403,
      'LOCATION_FORBIDDEN',
    );
  });

  it('answers the CSV with a line per key and channel, then the totals', async () => {
    const res = await w.call('GET', `/staff/reports/sales.csv?from=${day1}&to=${w.day}&groupBy=location`, manager);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="sales-by-location-${day1}-${w.day}.csv"`);
    expect(res.body.split('\r\n')).toEqual([
      '\uFEFF"Location","Channel","Bookings","Gross (AUD)","GST (AUD)","Refunds (AUD)","GST refunded (AUD)","Net ' +
        '(AUD)","Net GST (AUD)","Disputed (AUD)","Disputes lost (AUD)"',
      '"Kringle Sydney, Pitt Street","Online","4","139.86","12.71","25.06","2.28","114.80","10.43","0.00","0.00"',
      '"Kringle Sydney, Pitt Street","Walk-in","2","79.90","7.26","0.00","0.00","79.90","7.26","0.00","0.00"',
      '"Kringle Brisbane, Queen Street","Online","1","43.21","3.93","0.00","0.00","43.21","3.93","0.00","0.00"',
      '"Total","Online","5","183.07","16.64","25.06","2.28","158.01","14.36","0.00","0.00"',
      '"Total","Walk-in","2","79.90","7.26","0.00","0.00","79.90","7.26","0.00","0.00"',
      '"Total","All","7","262.97","23.90","25.06","2.28","237.91","21.62","0.00","0.00"',
      '',
    ]);
  });

  it('refuses bad input with the contract body, and other roles', async () => {
    for (const query of [
      '',
      `?from=${w.day}`,
      `?from=2026-02-30&to=${w.day}`,
      `?from=${w.day}&to=${day1}`,
      `?from=2026-01-01&to=2026-06-30`,
      `?from=${day1}&to=${w.day}&groupBy=week`,
      `?from=${day1}&to=${w.day}&locationId=nope`,
      `?from=${day1}&to=${w.day}&extra=1`,
    ]) {
      expectContractError(await get(query), 400, 'VALIDATION_FAILED');
    }
    const support = await createPerson(
      w.t.db,
      true,
      { firstName: 'Sue', lastName: 'Port' },
      { role: 'support', mfaEnrolled: true },
    );
    expectContractError(await get(`?from=${day1}&to=${w.day}`, support), 403, 'ROLE_FORBIDDEN');
    expectContractError(await get(`?from=${day1}&to=${w.day}`, w.elf), 403, 'ROLE_FORBIDDEN');
    expectContractError(await get(`?from=${day1}&to=${w.day}`, w.family), 403, 'STAFF_ONLY');
  });
});
