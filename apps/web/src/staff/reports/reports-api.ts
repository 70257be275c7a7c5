import type { DonationReport } from '@kringle/contracts/donation-reports';
import type { OccupancyReport, SalesGroup, SalesReport } from '@kringle/contracts/reports';
import type { VoucherReport } from '@kringle/contracts/voucher-reports';
import { downloadFile, requestJson } from '../session/staff-client';

/** The managers' reports (issue 35, decision 0057), over the staff app's one request path. */
export interface ReportFilter {
  from: string;
  to: string;
  /** '' = every location the manager covers. */
  locationId: string;
  groupBy: SalesGroup;
}

const queryOf = (f: ReportFilter, sales: boolean) =>
  new URLSearchParams({
    from: f.from,
    to: f.to,
    ...(f.locationId ? { locationId: f.locationId } : {}),
    ...(sales ? { groupBy: f.groupBy } : {}),
  }).toString();

export const salesReport = (f: ReportFilter) => requestJson<SalesReport>(`/staff/reports/sales?${queryOf(f, true)}`);
export const occupancyReport = (f: ReportFilter) =>
  requestJson<OccupancyReport>(`/staff/reports/occupancy?${queryOf(f, false)}`);
export const salesCsv = (f: ReportFilter) =>
  downloadFile(`/staff/reports/sales.csv?${queryOf(f, true)}`, 'text/csv', 'sales.csv');
export const occupancyCsv = (f: ReportFilter) =>
  downloadFile(`/staff/reports/occupancy.csv?${queryOf(f, false)}`, 'text/csv', 'occupancy.csv');
// The donations' query is occupancy's: the API's strict schema refuses a groupBy.
export const donationReport = (f: ReportFilter) =>
  requestJson<DonationReport>(`/staff/reports/donations?${queryOf(f, false)}`);
export const donationsCsv = (f: ReportFilter) =>
  downloadFile(`/staff/reports/donations.csv?${queryOf(f, false)}`, 'text/csv', 'donations.csv');
// Brand-wide: the dates only (the API's strict schema refuses a location).
const daysOf = (f: ReportFilter) => new URLSearchParams({ from: f.from, to: f.to }).toString();
export const voucherReport = (f: ReportFilter) => requestJson<VoucherReport>(`/staff/reports/vouchers?${daysOf(f)}`);
export const vouchersCsv = (f: ReportFilter) =>
  downloadFile(`/staff/reports/vouchers.csv?${daysOf(f)}`, 'text/csv', 'vouchers.csv');
