/**
 * What each route's path ids name, for the access-control suite (ASVS 4.1–4.2):
 * a new route with an id must be written here on purpose, as owned, shared, signed or staff.
 */

/** Path parameters that name a customer's own resource, by route, and what to fill them with. */
type Owned = 'reservation' | 'booking' | 'order' | 'waitlist';
export const OWNED: Record<string, Record<string, Owned>> = {
  '/api/v1/bookings/reservation/{id}': { id: 'reservation' },
  '/api/v1/bookings/reservation/{id}/refresh': { id: 'reservation' },
  '/api/v1/bookings/reservation/{id}/cancel': { id: 'reservation' },
  '/api/v1/bookings/reservation/{id}/checkoutOrder': { id: 'reservation' },
  '/api/v1/bookings/{id}': { id: 'booking' },
  '/api/v1/bookings/{id}/continue-payment': { id: 'booking' },
  '/api/v1/bookings/{id}/cancel': { id: 'booking' },
  '/api/v1/bookings/{id}/reschedule': { id: 'booking' },
  '/api/v1/bookings/{id}/calendar.ics': { id: 'booking' },
  '/api/v1/bookings/{id}/details': { id: 'booking' },
  '/api/v1/bookings/{id}/closure/accept': { id: 'booking' },
  '/api/v1/bookings/{id}/closure/refund': { id: 'booking' },
  '/api/v1/orders/{bookingId}/orders': { bookingId: 'booking' },
  '/api/v1/orders/{bookingId}/orders/{orderId}': { bookingId: 'booking', orderId: 'order' },
  '/api/v1/orders/{bookingId}/orders/{orderId}/payment-receipt': { bookingId: 'booking', orderId: 'order' },
  '/api/v1/orders/{bookingId}/orders/{orderId}/refund-receipt': { bookingId: 'booking', orderId: 'order' },
  '/api/v1/waitlist/{id}': { id: 'waitlist' },
  '/api/v1/bookings/{id}/photos': { id: 'booking' },
  '/api/v1/bookings/{id}/photos/unlock': { id: 'booking' },
  '/api/v1/bookings/{id}/photos/checkout': { id: 'booking' },
  '/api/v1/bookings/{id}/photos.zip': { id: 'booking' },
  // The photo id is filled with her booking id: the booking is checked first, so either way 404.
  '/api/v1/bookings/{id}/photos/{photoId}/original': { id: 'booking', photoId: 'booking' },
  '/api/v1/bookings/{id}/wallet.pkpass': { id: 'booking' },
  '/api/v1/bookings/{id}/wallet/google': { id: 'booking' },
};
/** Catalogue routes: their ids name shared things (locations, slots), nobody's own. */
export const SHARED = [
  '/api/v1/booking-slot/{id}/available-dates',
  '/api/v1/booking-slot/{id}/available-slots',
  '/api/v1/booking-slot/{id}/slots/{slotId}',
  '/api/v1/booking-slot/{locationId}/live',
  // The waiting room (issue 40): a location's line; the ticket is the caller's own, found by the token.
  '/api/v1/queue/{locationId}',
  '/api/v1/queue/{locationId}/live',
  '/api/v1/queue/{locationId}/fairness',
  '/api/v1/queue/{locationId}/report',
  // A family's own choice by its kind (issue 51): the account is the token's; a kind is no one's resource.
  '/api/v1/user/consents/{kind}',
];
/**
 * A gift voucher's routes: the code is a secret (its bearer may look it up and claim it), the id is the buyer's or the
 * claimer's. Checked in test/vouchers/gift-vouchers.test.ts: another account's code or id answers 404 NOT_FOUND.
 */
export const VOUCHER = [
  '/api/v1/vouchers/{code}',
  '/api/v1/vouchers/{code}/claim',
  '/api/v1/vouchers/{id}/certificate.pdf',
  '/api/v1/vouchers/{id}/receipt.pdf',
];
/** Signed, expiring file URLs (decision 0054): public, the signature is the access; checked in test/photos. */
export const SIGNED = [
  '/api/v1/photo-files/photos/{photoId}/{file}',
  // Apple's PassKit web service (decision 0099): the pass's own authenticationToken is the access; checked in
  // test/wallet.
  '/api/v1/wallet/apple/v1/devices/{deviceId}/registrations/{passTypeId}/{serial}',
  '/api/v1/wallet/apple/v1/devices/{deviceId}/registrations/{passTypeId}',
  '/api/v1/wallet/apple/v1/passes/{passTypeId}/{serial}',
];
/**
 * The staff app's routes (issue 19): a staff token only. Their ids name any booking (staff act at
 * every location), so they are not "owned"; every one refuses a customer, checked below.
 */
export const isStaffRoute = (path: string) => path.startsWith('/api/v1/staff/');
