import { z } from 'zod';
import { RESERVATION_STATUSES } from './statuses';

export const reservationSchema = z
  .object({
    id: z.uuid(),
    slotId: z.uuid(),
    locationId: z.uuid(),
    status: z.enum(RESERVATION_STATUSES),
    expiresAt: z.iso.datetime(),
    refreshesLeft: z.number().int(),
    bookingId: z.uuid().nullable(),
  })
  .meta({ id: 'Reservation' });
export type Reservation = z.infer<typeof reservationSchema>;

/** `GET /bookings/reservation`: the family's live holds and unpaid checkouts. */
export const reservationListSchema = z.object({ items: z.array(reservationSchema) }).meta({ id: 'ReservationList' });
export type ReservationList = z.infer<typeof reservationListSchema>;

export const createReservationBodySchema = z.strictObject({
  slotId: z.uuid(),
  /** Set when the hold is for rescheduling that booking. */
  bookingId: z.uuid().optional(),
});
export type CreateReservationBody = z.infer<typeof createReservationBodySchema>;

export const reservationParamsSchema = z.strictObject({ id: z.uuid() });

/** The web app's `reservationData` (spec §3). */
export interface ReservationData {
  holdId: string;
  slotId: string;
  expiresAt: string;
}
export const toReservationData = (r: Reservation): ReservationData => ({
  holdId: r.id,
  slotId: r.slotId,
  expiresAt: r.expiresAt,
});
