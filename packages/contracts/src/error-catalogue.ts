import type { ErrorCode } from './errors';

export interface CatalogueEntry {
  /** The HTTP status the API answers with this code. */
  status: number;
  /** What the customer reads when nothing more specific applies. */
  text: string;
}

/**
 * Every error code's status and default text, defined once (decision 0046): the API makes its
 * errors from it (apps/api/src/lib/errors.ts) and the web app shows the same words.
 */
export const ERROR_CATALOGUE = {
  VALIDATION_FAILED: { status: 400, text: 'Some of the details sent are not valid.' },
  NOT_FOUND: { status: 404, text: 'That could not be found.' },
  RATE_LIMITED: { status: 429, text: 'Too many attempts. Please try again later.' },
  UNAUTHENTICATED: { status: 401, text: 'User not authenticated' },
  APP_CHECK_REQUIRED: { status: 401, text: 'This app could not be verified. Please reload the page.' },
  APP_CHECK_INVALID: { status: 401, text: 'This app could not be verified. Please reload the page.' },
  ATTESTATION_FAILED: { status: 403, text: 'We could not verify this app. Please try again later.' },
  EMAIL_NOT_VERIFIED: { status: 403, text: 'Email not verified' },
  STAFF_NOT_ALLOWED: { status: 403, text: 'Not Authorized to login' },
  EMAIL_IN_USE: { status: 409, text: 'An account with this email address already exists.' },
  INVALID_CREDENTIALS: { status: 401, text: 'The email address or password is incorrect.' },
  REDIRECT_NOT_ALLOWED: { status: 400, text: 'That redirect address is not allowed.' },
  ALREADY_VERIFIED: { status: 409, text: 'Your email address is already verified.' },
  INVALID_ACTION_CODE: {
    status: 400,
    text: 'This link is not valid or has already been used. Please ask for a new one.',
  },
  EXPIRED_ACTION_CODE: { status: 400, text: 'This link has expired. Please ask for a new one.' },
  WEAK_PASSWORD: { status: 400, text: 'That password is too weak. Choose something harder to guess.' },
  WRONG_PASSWORD: { status: 400, text: 'The current password is not right.' },
  SLOT_UNAVAILABLE: { status: 409, text: 'Sorry, that session was just taken. Please choose another time.' },
  SALES_NOT_OPEN: { status: 409, text: 'Bookings for this location are not open yet.' },
  QUEUE_NOT_ADMITTED: {
    status: 409,
    text: 'Bookings here open through the waiting room. Please join the line; we will let you in when it is your turn.',
  },
  BOOKING_LIMIT: {
    status: 409,
    text: 'You already have the most upcoming bookings one account can hold. Please contact us for more.',
  },
  HOLD_LIMIT: {
    status: 409,
    text:
      'You already have a session on hold or waiting for payment. Let it go, or finish that booking, before ' +
      'choosing another.',
  },
  HOLD_COOLDOWN: {
    status: 409,
    text: 'You have let go of several sessions in the last few minutes. Please wait a little before holding another.',
  },
  HOLD_EXPIRED: { status: 409, text: 'Your hold on this session has ended. Please choose a session again.' },
  REFRESH_LIMIT: {
    status: 409,
    text: 'This hold cannot be extended again. Please finish your booking before the timer ends.',
  },
  PRICE_MISMATCH: { status: 409, text: 'Prices have changed. Please check your cart.' },
  CART_INVALID: { status: 409, text: 'Some prices in your cart have changed. Please review your cart.' },
  RESCHEDULE_WINDOW_CLOSED: { status: 409, text: 'This booking can no longer be moved.' },
  RESCHEDULE_LIMIT: { status: 409, text: 'This booking has already been moved the most times allowed.' },
  DIFFERENT_LOCATION: { status: 400, text: 'A booking can only move to another session at the same location.' },
  NOT_CANCELLABLE: { status: 409, text: 'This booking can no longer be cancelled.' },
  CLOSURE_NOT_CONFIRMED: { status: 400, text: "Type the location's name exactly as shown to confirm the closure." },
  NO_CLOSURE_OFFER: { status: 409, text: 'This booking has no replacement session waiting for an answer.' },
  IDEMPOTENCY_MISMATCH: {
    status: 422,
    text: 'This Idempotency-Key was already used with different details. Use a new key for a new request.',
  },
  RESCHEDULE_HOLD: {
    status: 409,
    text:
      'This session is held to move one of your bookings, so it cannot be booked as a new one. Finish the move, ' +
      'or choose the session again.',
  },
  NOT_PAID: { status: 409, text: 'This order has not been paid, so there is no tax invoice yet.' },
  ALREADY_PAID: { status: 409, text: 'This booking is already paid.' },
  NO_REFUND: { status: 404, text: 'This order has no refund.' },
  REFUND_TOO_LARGE: { status: 409, text: 'That is more than is left to refund on this order.' },
  DISPUTE_CLOSED: { status: 409, text: 'This dispute is no longer waiting for evidence.' },
  PROMO_INVALID: { status: 409, text: 'This promo code cannot be used for this booking.' },
  PROMO_CODE_TAKEN: { status: 409, text: 'There is already a promo code with these letters.' },
  VOUCHER_INVALID: { status: 409, text: 'This gift voucher cannot be used for this booking.' },
  VOUCHER_CLAIMED: { status: 409, text: 'This gift voucher is already in another account.' },
  DETAILS_LOCKED: { status: 409, text: 'This booking can no longer change.' },
  CONSENT_REQUIRED: {
    status: 400,
    text: 'Please tick the box to agree that we may keep these access needs, or remove them.',
  },
  CONSENT_WORDING_CHANGED: {
    status: 409,
    text:
      'The words of this choice have changed since the page was opened. ' +
      'Reload the page, read them and choose again.',
  },
  UPCOMING_BOOKINGS: {
    status: 409,
    text:
      'You have upcoming bookings. Deleting your account cancels them with the refund the policy gives: confirm ' +
      'to go ahead.',
  },
  WAITLIST_NOT_NEEDED: { status: 409, text: 'A session is still free on that day. Choose it now instead.' },
  WAITLIST_LIMIT: {
    status: 409,
    text: 'You are already on the waitlist for the most days at once. Leave one to join another.',
  },
  ALREADY_WAITLISTED: { status: 409, text: 'You are already on the waitlist for that day.' },
  ALREADY_BOOKED: { status: 409, text: 'You already have a booking on that day.' },
  STAFF_ONLY: { status: 403, text: 'Staff only' },
  ROLE_FORBIDDEN: { status: 403, text: 'Your role does not allow this. Ask a manager if you need it.' },
  LOCATION_FORBIDDEN: { status: 403, text: 'Your account does not cover this location.' },
  MFA_REQUIRED: { status: 403, text: 'Set up your second sign-in step before you continue.' },
  INVALID_MFA_CODE: {
    status: 401,
    text: 'That code is not right. Try the newest code from your app, or a recovery code.',
  },
  MFA_ALREADY_ENROLLED: { status: 409, text: 'A second sign-in step is already set up for this account.' },
  BOOKING_CANCELLED: { status: 409, text: 'This booking was cancelled, so it cannot be checked in.' },
  BOOKING_NOT_CONFIRMED: { status: 409, text: 'This booking was never paid, so it cannot be checked in.' },
  WRONG_LOCATION_OR_DAY: { status: 409, text: 'This booking is for another location or day.' },
  SESSION_NOT_STARTED: {
    status: 409,
    text: 'The session has not started yet, so the family cannot be marked no-show.',
  },
  ALREADY_CHECKED_IN: { status: 409, text: 'This family is checked in. Undo the check-in first.' },
  NOTHING_TO_UNDO: { status: 409, text: 'There is nothing to undo on this booking.' },
  UNDO_WINDOW_CLOSED: { status: 409, text: 'This check-in can no longer be undone.' },
  PHOTO_ALLOWANCE_USED: { status: 409, text: 'Your packages include no more photos. Buy more to unlock these.' },
  PHOTO_LOCKED: { status: 403, text: 'Unlock this photo first to download the original.' },
  SESSIONS_HAVE_BOOKINGS: {
    status: 409,
    text: 'Families are booked in sessions this change would remove or change. Close those sessions instead.',
  },
  SEASON_VERSION_STALE: {
    status: 412,
    text: 'Someone saved the season after you opened it. Reload it and make your change again.',
  },
  SEASON_VERSION_REQUIRED: { status: 428, text: 'Say which version of the season you changed (If-Match).' },
  PAYLOAD_TOO_LARGE: { status: 413, text: 'That request is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, text: 'Send the request as application/json.' },
  BAD_REQUEST: { status: 400, text: 'That request could not be handled.' },
  SERVICE_UNAVAILABLE: { status: 503, text: 'We are having a short technical problem. Please try again in a moment.' },
  ILLEGAL_TRANSITION: { status: 409, text: 'This booking cannot be changed that way now.' },
  NOT_CONFIRMED: { status: 409, text: 'This booking is not paid yet, so it has no ticket for your wallet.' },
  WALLET_UNAVAILABLE: {
    status: 503,
    text: 'Wallet passes are not set up here yet. Show the QR code in your e-mail instead.',
  },
  INTERNAL: { status: 500, text: 'Something went wrong on our side. Please try again.' },
} as const satisfies Record<ErrorCode, CatalogueEntry>;
