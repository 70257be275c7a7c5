import { ERROR_CATALOGUE } from '@kringle/contracts/error-catalogue';
import type { ErrorCode } from '@kringle/contracts/errors';
import { formatAud } from '@kringle/contracts/money';
import type { PromoRefusal } from '@kringle/contracts/promos';
import { AppError, type ErrorDetail } from './app-error';

type Headers = Record<string, string>;

/** "45 seconds" / "12 minutes" / "2 hours": a wait, rounded up, as people say it. */
export function waitText(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  const [n, unit] =
    s < 120 ? [s, 'second'] : s < 2 * 3600 ? [Math.ceil(s / 60), 'minute'] : [Math.ceil(s / 3600), 'hour'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** An error with the catalogue's status; the text is the catalogue's unless the situation says more. */
export function appError(
  code: ErrorCode,
  message: string = ERROR_CATALOGUE[code].text,
  details?: ErrorDetail[],
  headers?: Headers,
): AppError {
  return new AppError(code, ERROR_CATALOGUE[code].status, message, details, headers);
}

/** The field's own problem is the most useful thing to read, so it is also the message. */
const fieldError = (code: ErrorCode, path: string, message: string) => appError(code, message, [{ path, message }]);

/**
 * Every error the API answers, by name (decision 0046). Parameters carry what the text names (a
 * limit, a place, a time); a message argument is for a situation more specific than the default.
 */
export const errors = {
  validation: (details: ErrorDetail[], message?: string) => appError('VALIDATION_FAILED', message, details),
  invalidField: (path: string, message: string) => fieldError('VALIDATION_FAILED', path, message),
  malformedJson: () =>
    appError('VALIDATION_FAILED', 'The request body is not valid JSON.', [{ path: 'body', message: 'Malformed JSON' }]),
  notFound: (what = 'That') => appError('NOT_FOUND', `${what} could not be found.`),
  rateLimited: (message: string, retryAfterSeconds: number) =>
    appError('RATE_LIMITED', message, undefined, { 'Retry-After': String(retryAfterSeconds) }),
  badRequest: (message?: string) => appError('BAD_REQUEST', message),
  payloadTooLarge: () => appError('PAYLOAD_TOO_LARGE'),
  unsupportedMediaType: () => appError('UNSUPPORTED_MEDIA_TYPE'),
  serviceUnavailable: (message?: string, headers?: Headers) =>
    appError('SERVICE_UNAVAILABLE', message, undefined, headers),
  illegalTransition: () => appError('ILLEGAL_TRANSITION'),
  // Wallet passes (decision 0099)
  notConfirmed: () => appError('NOT_CONFIRMED'),
  walletUnavailable: () => appError('WALLET_UNAVAILABLE'),

  // The season editor (decision 0056)
  seasonVersionStale: () => appError('SEASON_VERSION_STALE'),
  seasonVersionRequired: () => appError('SEASON_VERSION_REQUIRED'),
  /** Stripe is not configured on this server. */
  cardPaymentsUnavailable: () =>
    appError('SERVICE_UNAVAILABLE', 'Card payments are not available right now. Please try again soon.'),

  // Access
  unauthenticated: () => appError('UNAUTHENTICATED'),
  sessionEnded: () => appError('UNAUTHENTICATED', 'Your session has ended. Please sign in again.'),
  appCheckRequired: () => appError('APP_CHECK_REQUIRED'),
  appCheckInvalid: (message?: string) => appError('APP_CHECK_INVALID', message),
  attestationFailed: () => appError('ATTESTATION_FAILED'),
  emailNotVerified: () => appError('EMAIL_NOT_VERIFIED'),
  staffNotAllowed: () => appError('STAFF_NOT_ALLOWED'),
  staffOnly: () => appError('STAFF_ONLY'),
  roleForbidden: () => appError('ROLE_FORBIDDEN'),
  locationForbidden: () => appError('LOCATION_FORBIDDEN'),
  mfaRequired: () => appError('MFA_REQUIRED'),
  invalidMfaCode: () => appError('INVALID_MFA_CODE'),
  mfaAlreadyEnrolled: () => appError('MFA_ALREADY_ENROLLED'),

  // Accounts
  emailInUse: () => appError('EMAIL_IN_USE'),
  invalidCredentials: () => appError('INVALID_CREDENTIALS'),
  redirectNotAllowed: () =>
    appError('REDIRECT_NOT_ALLOWED', undefined, [
      { path: 'body.redirectUrl', message: 'Must be one of the app origins' },
    ]),
  alreadyVerified: (message?: string) => appError('ALREADY_VERIFIED', message),
  invalidActionCode: () => appError('INVALID_ACTION_CODE'),
  expiredActionCode: () => appError('EXPIRED_ACTION_CODE'),
  weakPassword: (message: string, path: string) => fieldError('WEAK_PASSWORD', path, message),
  /** The password change names the current password; the e-mail change (decision 0068) its one password field. */
  wrongPassword: (path = 'body.currentPassword', message: string = ERROR_CATALOGUE.WRONG_PASSWORD.text) =>
    fieldError('WRONG_PASSWORD', path, message),

  // Holds and checkout
  slotUnavailable: (message?: string) => appError('SLOT_UNAVAILABLE', message),
  /** `opens` is the opening in the location's own clock, when known. */
  salesNotOpen: (place: string, opens?: string) =>
    appError(
      'SALES_NOT_OPEN',
      opens ? `Bookings for ${place} open ${opens}.` : `Bookings for ${place} are not open yet.`,
    ),
  /** Decision 0053: after the opening, while the line is open, a hold needs a live admission. */
  queueNotAdmitted: () => appError('QUEUE_NOT_ADMITTED'),
  bookingLimit: (limit: number) =>
    appError(
      'BOOKING_LIMIT',
      `You already have ${limit} upcoming bookings, the most one account can hold. Please contact us for more.`,
    ),
  /** Decision 0059: one live hold or unpaid checkout per family. */
  holdLimit: () => appError('HOLD_LIMIT'),
  /** Decision 0059: a churn of releases waits; the message and `Retry-After` say how long. */
  holdCooldown: (retryAfterSeconds: number) =>
    appError(
      'HOLD_COOLDOWN',
      `You have let go of several sessions in the last few minutes. Please wait ` +
        `${waitText(retryAfterSeconds)} before holding another.`,
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  /**
   * Decision 0069: the client's address holds HOLD_ADDRESS_LIMIT sessions of this location's day
   * already (a script's many accounts, or a crowded shared Wi-Fi); `Retry-After` is when the first
   * of them ends.
   */
  /** Issue 48 item 13: QUEUE_TICKETS_PER_ADDRESS live tickets in this line from one address. */
  queueAddressFull: (retryAfterSeconds: number) =>
    appError(
      'RATE_LIMITED',
      `Many places in this waiting room are already taken from your internet connection (a shared Wi-Fi, perhaps). ` +
        `Please try again in ${waitText(retryAfterSeconds)}, from another connection if you can.`,
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  holdAddressFull: (retryAfterSeconds: number) =>
    appError(
      'RATE_LIMITED',
      `Many sessions on this day are on hold from your internet connection right now (a shared Wi-Fi, perhaps). ` +
        `Please try again in ${waitText(retryAfterSeconds)}, or pick another day.`,
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  holdExpired: () => appError('HOLD_EXPIRED'),
  refreshLimit: () => appError('REFRESH_LIMIT'),
  priceMismatch: (amountCents: number) =>
    appError(
      'PRICE_MISMATCH',
      `Prices have changed: your total is now ${formatAud(amountCents)}. Please check your cart.`,
      [{ path: 'body.amount', message: `expected ${amountCents}` }],
    ),
  cartInvalid: (message?: string) => appError('CART_INVALID', message),
  alreadyPaid: () => appError('ALREADY_PAID'),

  // Bookings
  notMovable: () => appError('RESCHEDULE_WINDOW_CLOSED', 'Only confirmed bookings can be moved.'),
  rescheduleWindowClosed: (cutoffHours: number) =>
    appError('RESCHEDULE_WINDOW_CLOSED', `Bookings can be moved until ${cutoffHours} hours before the session.`),
  rescheduleLimit: (limit: number) =>
    appError('RESCHEDULE_LIMIT', `This booking has already been moved ${limit} times, the most allowed.`),
  differentLocation: () => appError('DIFFERENT_LOCATION'),
  notCancellable: (message?: string) => appError('NOT_CANCELLABLE', message),
  disputeClosed: (message?: string) => appError('DISPUTE_CLOSED', message),
  /** The detail's message is the reason's name (PROMO_REFUSALS), for a client to branch on. */
  promoInvalid: (reason: PromoRefusal, message: string) =>
    appError('PROMO_INVALID', message, [{ path: 'body.promoCode', message: reason }]),
  promoCodeTaken: () =>
    appError('PROMO_CODE_TAKEN', undefined, [{ path: 'body.code', message: 'Already a promo code' }]),
  /** A voucher that pays nothing here (unknown, spent, expired, another account's); the detail names its field. */
  voucherInvalid: (message: string, path = 'body.vouchers') =>
    appError('VOUCHER_INVALID', message, [{ path, message }]),
  voucherClaimed: () => appError('VOUCHER_CLAIMED'),
  closureNotConfirmed: (locationName: string) =>
    appError('CLOSURE_NOT_CONFIRMED', `Type the location's name, ${locationName}, exactly to confirm the closure.`, [
      { path: 'body.confirm', message: "Not the location's name" },
    ]),
  noClosureOffer: () => appError('NO_CLOSURE_OFFER'),
  /**
   * Stripe's rule: the same key with different parameters is refused, never answered with the first request's result.
   */
  idempotencyMismatch: () =>
    appError('IDEMPOTENCY_MISMATCH', undefined, [
      { path: 'headers.idempotency-key', message: 'Already used with a different request body' },
    ]),
  /** A hold taken to move a booking (`bookingId`) serves that booking's reschedule only. */
  rescheduleHold: () => appError('RESCHEDULE_HOLD'),
  /**
   * The booking's own session was closed (a closure refunds it or offers a move): the family's move would race that.
   */
  sessionClosedForMove: () =>
    appError(
      'RESCHEDULE_WINDOW_CLOSED',
      'This session was closed, so the booking cannot be moved here: we will refund it or offer you another session.',
    ),
  detailsLocked: (message?: string) => appError('DETAILS_LOCKED', message),
  consentRequired: (path: string) =>
    fieldError('CONSENT_REQUIRED', path, 'Tick the box to agree, or remove the access needs and note.'),
  consentWordingChanged: () => appError('CONSENT_WORDING_CHANGED'),
  /** DELETE /user without cancelUpcoming: the references say which bookings would be cancelled. */
  upcomingBookings: (references: string[]) =>
    appError('UPCOMING_BOOKINGS', `${ERROR_CATALOGUE.UPCOMING_BOOKINGS.text} (${references.join(', ')})`),
  /** Staff name the booking; the family's own invoice link does not need to. */
  notPaid: (reference?: string) =>
    appError('NOT_PAID', reference ? `Booking ${reference} has not been paid, so it has no tax invoice.` : undefined),
  noRefund: () => appError('NO_REFUND'),
  refundTooLarge: (leftCents: number) =>
    appError('REFUND_TOO_LARGE', `That is more than is left to refund on this order (${formatAud(leftCents)} left).`),

  // Waitlist
  waitlistNotNeeded: () => appError('WAITLIST_NOT_NEEDED'),
  waitlistLimit: (limit: number) =>
    appError(
      'WAITLIST_LIMIT',
      `You are already on the waitlist for ${limit} days, the most at once. Leave one to join another.`,
    ),
  alreadyWaitlisted: () => appError('ALREADY_WAITLISTED'),
  alreadyBooked: () => appError('ALREADY_BOOKED'),

  // Staff at the set
  bookingCancelled: (reference: string) =>
    appError('BOOKING_CANCELLED', `Booking ${reference} was cancelled, so it cannot be checked in.`),
  bookingNotConfirmed: (reference: string) =>
    appError('BOOKING_NOT_CONFIRMED', `Booking ${reference} was never paid, so it cannot be checked in.`),
  /** `when` is the session's start in the location's own clock. */
  wrongLocationOrDay: (b: { reference: string; locationName: string; when: string; slotTypeName: string }) =>
    appError(
      'WRONG_LOCATION_OR_DAY',
      `Booking ${b.reference} is for ${b.locationName}, ${b.when} (${b.slotTypeName}).`,
    ),
  sessionNotStarted: () => appError('SESSION_NOT_STARTED'),

  // Photos (issue 39)
  /** `left`: how many more the packages include. */
  photoAllowanceUsed: (left: number) =>
    appError(
      'PHOTO_ALLOWANCE_USED',
      left > 0
        ? `Your packages include ${left} more photo${left === 1 ? '' : 's'}. Choose fewer, or buy more.`
        : undefined,
    ),
  photoLocked: () => appError('PHOTO_LOCKED'),
  photosNeedConfirmedBooking: (reference: string) =>
    appError('BOOKING_NOT_CONFIRMED', `Booking ${reference} is not a confirmed booking, so it cannot have photos.`),
  photosWrongLocation: (reference: string) =>
    appError('WRONG_LOCATION_OR_DAY', `Booking ${reference} is for another location.`),
  onlyJpegPhotos: () => appError('UNSUPPORTED_MEDIA_TYPE', 'Only JPEG photos (image/jpeg) can be uploaded.'),
  photoTooLarge: (mb: number) => appError('PAYLOAD_TOO_LARGE', `A photo may be at most ${mb} MB.`),
  /**
   * No file of an upload could be kept (issue 48 items 7, 8): 415 unreadable or 413 too many pixels, each file named.
   */
  photosNotKept: (code: 'UNSUPPORTED_MEDIA_TYPE' | 'PAYLOAD_TOO_LARGE', message: string, details: ErrorDetail[]) =>
    appError(code, message, details),
  alreadyCheckedIn: () => appError('ALREADY_CHECKED_IN'),
  nothingToUndo: () => appError('NOTHING_TO_UNDO'),
  undoWindowClosed: (seconds: number) =>
    appError('UNDO_WINDOW_CLOSED', `A check-in can be undone for ${seconds} seconds only.`),
};

export const notFound = errors.notFound;
