import type { AuditList } from '@kringle/contracts/audit';
import type { BookingDetails } from '@kringle/contracts/booking-details';
import type { Dispute, DisputeList } from '@kringle/contracts/disputes';
import type { StaffBooking } from '@kringle/contracts/staff';
import type { StaffVoucher, StaffVoucherList } from '@kringle/contracts/voucher-desk';
import type {
  FamilySearchResult,
  FreeSessions,
  SupportBooking,
  SupportRefund,
  SupportRefundChoice,
} from '@kringle/contracts/support';
import { downloadFile, postJson, requestJson } from '../session/staff-client';

/** The support desk's calls (issue 34), over the staff app's one request path. */
export const searchFamilies = (q: string, signal?: AbortSignal) =>
  requestJson<FamilySearchResult>(`/staff/families?q=${encodeURIComponent(q)}`, { signal });
export const supportBooking = (id: string) => requestJson<SupportBooking>(`/staff/bookings/${id}`);
export const freeSessions = (id: string, date: string) =>
  requestJson<FreeSessions>(`/staff/bookings/${id}/free-sessions?date=${date}`);
export const reschedule = (id: string, slotId: string, reason: string) =>
  postJson<StaffBooking>(`/staff/bookings/${id}/reschedule`, { slotId, reason });
export const cancelBooking = (id: string, refund: SupportRefundChoice, reason: string) =>
  postJson<StaffBooking>(`/staff/bookings/${id}/cancel`, { refund, reason });
export const refundOrder = (orderId: string, amountCents: number, reason: string) =>
  postJson<SupportRefund>(`/staff/orders/${orderId}/refunds`, { amountCents, reason });
export const editDetails = (id: string, details: BookingDetails, reason: string) =>
  requestJson<StaffBooking>(`/staff/bookings/${id}/details`, {
    method: 'PUT',
    body: JSON.stringify({ details, reason }),
  });
export const extendGallery = (id: string, days: number, reason: string) =>
  postJson<{ bookingId: string; expiresAt: string }>(`/staff/bookings/${id}/photos/extend`, { days, reason });
export const resendConfirmation = (id: string) =>
  postJson<{ message: string }>(`/staff/bookings/${id}/resend`, { kind: 'confirmation' });

export interface AuditFilter {
  family?: string;
  reference?: string;
  staffEmail?: string;
  from?: string;
  to?: string;
  /** The days from/to are of this zone: the location's (GET /staff/audit `timeZone`). */
  timeZone?: string;
  bookingId?: string;
  actorId?: string;
}
const queryOf = (f: AuditFilter & { cursor?: string }) =>
  new URLSearchParams(
    Object.entries(f).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''),
  ).toString();
export const auditPage = (f: AuditFilter, cursor?: string) =>
  requestJson<AuditList>(`/staff/audit?${queryOf({ ...f, cursor })}`);
export const auditCsv = (f: AuditFilter) => downloadFile(`/staff/audit.csv?${queryOf(f)}`, 'text/csv', 'audit.csv');

export const listDisputes = () => requestJson<DisputeList>('/staff/disputes');
export const submitDispute = (id: string, reason: string) =>
  postJson<Dispute>(`/staff/disputes/${encodeURIComponent(id)}/submit`, { reason });

export const findVouchers = (q: string) => requestJson<StaffVoucherList>(`/staff/vouchers?q=${encodeURIComponent(q)}`);
export const cancelVoucher = (id: string, reason: string) =>
  postJson<StaffVoucher>(`/staff/vouchers/${encodeURIComponent(id)}/cancel`, { reason });
