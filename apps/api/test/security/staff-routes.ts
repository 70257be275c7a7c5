/**
 * Every staff route that needs a token, as the access-control suite and the role suite expect them
 * (issue 34): a route added or gone must be written here on purpose.
 */

/**
 * Routes that act on one location (of a query, a body, a booking or a session): 403 LOCATION_FORBIDDEN outside the
 * account's list.
 */
export const LOCATION_SCOPED = [
  // With ?locationId (the Live page of one location); without it, the caller's own locations.
  'GET /api/v1/staff/live',
  'GET /api/v1/staff/live/stream',
  'GET /api/v1/staff/run-sheet',
  'GET /api/v1/staff/run-sheet.csv',
  'GET /api/v1/staff/bookings/{id}/receipt',
  'POST /api/v1/staff/check-ins',
  'POST /api/v1/staff/bookings/{id}/no-show',
  'POST /api/v1/staff/bookings/{id}/undo',
  'POST /api/v1/staff/walk-ins',
  'GET /api/v1/staff/bookings/{id}',
  'GET /api/v1/staff/bookings/{id}/free-sessions',
  'POST /api/v1/staff/bookings/{id}/reschedule',
  'POST /api/v1/staff/bookings/{id}/cancel',
  'POST /api/v1/staff/orders/{id}/refunds',
  'POST /api/v1/staff/bookings/{id}/resend',
  'PUT /api/v1/staff/bookings/{id}/details',
  'POST /api/v1/staff/bookings/{id}/photos',
  'POST /api/v1/staff/bookings/{id}/photos/extend',
  'POST /api/v1/staff/photos/batch',
  'GET /api/v1/staff/queue/{locationId}',
  'POST /api/v1/staff/queue/{locationId}/pause',
  'POST /api/v1/staff/queue/{locationId}/resume',
  'POST /api/v1/staff/closures/preview',
  'POST /api/v1/staff/closures',
  'POST /api/v1/staff/locations/{id}/delay',
  // With a locationId; without one they narrow to the caller's locations (reports tests).
  'GET /api/v1/staff/reports/sales',
  'GET /api/v1/staff/reports/sales.csv',
  'GET /api/v1/staff/reports/occupancy',
  'GET /api/v1/staff/reports/occupancy.csv',
  'GET /api/v1/staff/reports/donations',
  'GET /api/v1/staff/reports/donations.csv',
];
/** Routes about the caller or the whole brand: no location. */
export const NOT_LOCATION_SCOPED = [
  'GET /api/v1/staff/catalogue',
  'GET /api/v1/staff/me',
  'POST /api/v1/staff/sign-out-everywhere',
  'GET /api/v1/staff/accounts',
  'POST /api/v1/staff/accounts',
  'PATCH /api/v1/staff/accounts/{id}',
  'POST /api/v1/staff/mfa/setup',
  'POST /api/v1/staff/mfa/confirm',
  'GET /api/v1/staff/families',
  'GET /api/v1/staff/audit',
  'GET /api/v1/staff/audit.csv',
  'GET /api/v1/staff/season',
  'GET /api/v1/staff/season/versions',
  'GET /api/v1/staff/season/versions/{version}',
  'POST /api/v1/staff/season/preview',
  'PUT /api/v1/staff/season',
  // Scoped by its photo's location, which needs an uploaded photo: see photos-sequence-retention.test.ts.
  'POST /api/v1/staff/photos/{id}/assign',
  // Brand-wide codes; a manager kept to some locations makes and changes codes for those only (promo-codes.test.ts).
  'GET /api/v1/staff/promo-codes',
  'POST /api/v1/staff/promo-codes',
  'PATCH /api/v1/staff/promo-codes/{id}',
  // Lists the disputes of the caller's locations only: see disputes/disputes.test.ts.
  'GET /api/v1/staff/disputes',
  // Scoped by the dispute's booking's location, which needs a dispute: see disputes/disputes.test.ts.
  'POST /api/v1/staff/disputes/{id}/submit',
  // Scoped by the closure's location, which needs a closure: see closures/closures.test.ts.
  'GET /api/v1/staff/closures/{id}',
  'GET /api/v1/staff/closures/{id}.csv',
  // Gift vouchers are brand-wide: bought and spent anywhere (vouchers/gift-vouchers-spending.test.ts).
  'GET /api/v1/staff/vouchers',
  'POST /api/v1/staff/vouchers/{id}/cancel',
  'GET /api/v1/staff/reports/vouchers',
  'GET /api/v1/staff/reports/vouchers.csv',
];
