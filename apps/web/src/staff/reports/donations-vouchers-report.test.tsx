import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DonationReport } from '@kringle/contracts/donation-reports';
import type { VoucherReport } from '@kringle/contracts/voucher-reports';
import { salesFiguresSchema, type SalesFigures } from '@kringle/contracts/reports';
import { saveBlob } from '../../lib/save-blob';
import { fakeStaffApi, json } from '../parts/fake-staff-api';
import { ReportsPage } from './reports-page';

vi.mock('../../lib/save-blob', () => ({ saveBlob: vi.fn() }));

const locations = [
  {
    id: 'l-syd',
    name: 'Sydney Pitt Street',
    address: '188 Pitt Street',
    timezone: 'Australia/Sydney',
    queueOpensAt: null,
  },
];
// Every sales figure at zero: these tests are about the donations.
const zero = Object.fromEntries(Object.keys(salesFiguresSchema.shape).map((k) => [k, 0])) as SalesFigures;

const NO_VOUCHERS: VoucherReport = {
  items: [],
  totals: { soldCount: 0, soldCents: 0, redeemedCents: 0, expiredCents: 0, cancelledCents: 0, outstandingCents: 0 },
};
const NO_DONATIONS: DonationReport = {
  charityName: null,
  items: [],
  totals: { count: 0, donatedCents: 0, refundedCents: 0, netCents: 0 },
};

/** The page as the API answers it: no sales, no sessions, and `donations` and `vouchers`. */
function showReports(donations: DonationReport, vouchers = NO_VOUCHERS) {
  const calls = fakeStaffApi((path) => {
    const [route, query] = path.split('?');
    const q = Object.fromEntries(new URLSearchParams(query));
    if (route === '/staff/reports/sales') {
      const totals = { ...zero, channels: { online: zero, walkin: zero } };
      return json(200, { from: q.from, to: q.to, groupBy: q.groupBy, items: [], totals });
    }
    if (route === '/staff/reports/occupancy') return json(200, { from: q.from, to: q.to, items: [] });
    if (route === '/staff/reports/donations') return json(200, donations);
    if (route === '/staff/reports/vouchers') return json(200, vouchers);
    if (route?.endsWith('.csv')) return new Response('Date\n', { headers: { 'content-type': 'text/csv' } });
  });
  render(<ReportsPage locations={locations} />);
  return calls;
}
const cells = (row: HTMLElement) => [...row.children].map((c) => c.textContent);

afterEach(() => vi.unstubAllGlobals());

describe("the reports' donations", () => {
  it('names the charity, shows each day and the totals, and downloads the CSV for the same days', async () => {
    const calls = showReports({
      charityName: 'Smith Family',
      items: [
        { date: '2026-12-05', count: 3, donatedCents: 1500, refundedCents: 0, netCents: 1500 },
        { date: '2026-12-06', count: 1, donatedCents: 1000, refundedCents: 1000, netCents: 0 },
      ],
      totals: { count: 4, donatedCents: 2500, refundedCents: 1000, netCents: 1500 },
    });
    const section = await screen.findByRole('region', { name: 'Donations' });
    expect(within(section).getByText('Donations to Smith Family')).toBeInTheDocument();
    const rows = within(within(section).getByRole('region', { name: 'Donations table' })).getAllByRole('row');
    expect(rows.map(cells)).toEqual([
      ['Date', 'Donations', 'Donated', 'Refunded', 'Net'],
      ['2026-12-05', '3', '$15.00', '$0.00', '$15.00'],
      ['2026-12-06', '1', '$10.00', '$10.00', '$0.00'],
      ['Total', '4', '$25.00', '$10.00', '$15.00'],
    ]);

    await userEvent.click(within(section).getByRole('button', { name: 'Download donations CSV' }));
    await vi.waitFor(() => expect(saveBlob).toHaveBeenCalledWith(expect.any(Blob), 'donations.csv'));
    // The donations' query is the occupancy's: the API refuses a groupBy.
    const occupancy = calls.find((c) => c.call.startsWith('GET /staff/reports/occupancy?'))!.call.split('?')[1];
    expect(calls.map((c) => c.call)).toEqual(
      expect.arrayContaining([
        `GET /staff/reports/donations?${occupancy}`,
        `GET /staff/reports/donations.csv?${occupancy}`,
      ]),
    );
  });

  it('says no charity is configured when there is none and nothing was given, with no table or CSV', async () => {
    showReports(NO_DONATIONS);
    const section = await screen.findByRole('region', { name: 'Donations' });
    expect(within(section).getByText(/No charity is configured.*the operator sets CHARITY_NAME/)).toBeInTheDocument();
    expect(within(section).queryByRole('table')).toBeNull();
    expect(within(section).queryByRole('button')).toBeNull();
  });
});

describe("the reports' gift vouchers", () => {
  it('shows what was sold, redeemed, expired and cancelled by day and what is owed, for the dates only', async () => {
    const calls = showReports(NO_DONATIONS, {
      items: [
        {
          date: '2026-12-05',
          soldCount: 2,
          soldCents: 10000,
          redeemedCents: 3995,
          expiredCents: 0,
          cancelledCents: 0,
        },
        { date: '2026-12-06', soldCount: 0, soldCents: 0, redeemedCents: 0, expiredCents: 0, cancelledCents: 2000 },
      ],
      totals: {
        soldCount: 2,
        soldCents: 10000,
        redeemedCents: 3995,
        expiredCents: 0,
        cancelledCents: 2000,
        outstandingCents: 4005,
      },
    });
    const section = await screen.findByRole('region', { name: 'Gift vouchers' });
    expect(within(section).getByText('Outstanding now').nextElementSibling).toHaveTextContent('$40.05');
    const rows = within(within(section).getByRole('region', { name: 'Gift vouchers table' })).getAllByRole('row');
    expect(rows.map(cells)).toEqual([
      ['Date', 'Sold', 'Sold value', 'Redeemed', 'Expired', 'Cancelled'],
      ['2026-12-05', '2', '$100.00', '$39.95', '$0.00', '$0.00'],
      ['2026-12-06', '0', '$0.00', '$0.00', '$0.00', '$20.00'],
      ['Total', '2', '$100.00', '$39.95', '$0.00', '$20.00'],
    ]);
    await userEvent.click(within(section).getByRole('button', { name: 'Download gift vouchers CSV' }));
    await vi.waitFor(() => expect(saveBlob).toHaveBeenCalledWith(expect.any(Blob), 'vouchers.csv'));
    // Brand-wide: the API's strict query takes the dates and nothing else.
    const asked = calls.map((c) => c.call).filter((c) => c.includes('/staff/reports/vouchers'));
    expect(asked).toHaveLength(2);
    for (const call of asked) expect(call).toMatch(/\?from=\d{4}-\d\d-\d\d&to=\d{4}-\d\d-\d\d$/);
  });
});
