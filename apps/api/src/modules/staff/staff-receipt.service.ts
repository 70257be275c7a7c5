import type { DbOrTx } from '../../db/client';
import { errors } from '../../lib/errors';
import { bookingDetails } from '../booking-lifecycle/booking-rows.repository';
import { ordersOfBooking } from '../orders/orders.repository';
import { invoiceNumber, receiptData } from '../orders/orders.service';
import { paymentReceiptPdf } from '../orders/receipts.pdf';
import { staffBookingView } from './staff.repository';
import { getStaffBooking, type Deps, type LocationGuard } from './staff.service';

export interface TaxInvoice {
  filename: string;
  pdf: Buffer;
}

/**
 * A booking's tax invoice, named for the family (a walk-in's as entered at the counter). Null when
 * nothing was paid. Read with `db`, so a sale's receipt e-mail can be built inside its transaction.
 */
export async function taxInvoiceOf(
  deps: Pick<Deps, 'config'>,
  db: DbOrTx,
  bookingId: string,
  family: { firstName: string; lastName: string; email: string | null },
): Promise<TaxInvoice | null> {
  const order = (await ordersOfBooking(db, bookingId)).find((o) => o.paidAt !== null);
  if (!order) return null;
  const d = await bookingDetails(db, bookingId);
  // A deleted account's invoice prints the name copied at deletion (decision 0058), nothing else of it.
  const kept = order.invoiceName !== null;
  const data = receiptData(
    deps,
    {
      reference: d.booking.reference,
      firstName: kept ? order.invoiceName! : family.firstName,
      lastName: kept ? '' : family.lastName,
      email: kept ? '' : (family.email ?? ''),
      sessionName: d.slotTypeName,
      sessionStart: d.startAt,
      locationName: d.locationName,
      locationAddress: d.address,
      suburb: d.suburb,
      state: d.state,
      timezone: d.timezone,
    },
    order,
  );
  return {
    filename: `tax-invoice-${invoiceNumber(d.booking.reference, order.id)}.pdf`,
    pdf: await paymentReceiptPdf(data),
  };
}

/** GET /staff/bookings/{id}/receipt: printed at the counter, for a family without an e-mail (or who asks for paper). */
export async function staffReceipt(deps: Deps, id: string, guard: LocationGuard): Promise<TaxInvoice> {
  const view = await staffBookingView(deps.db, id);
  if (view) guard(view.locationId);
  const booking = await getStaffBooking(deps, id);
  const invoice = await taxInvoiceOf(deps, deps.db, id, booking.customer);
  if (!invoice) throw errors.notPaid(booking.reference);
  return invoice;
}
