import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '@kringle/contracts/error-catalogue';
import type { AppError } from './app-error';
import { errors } from './errors';

/** One call per factory; typed so that a new factory cannot be left out. */
const made: Record<keyof typeof errors, () => AppError> = {
  validation: () => errors.validation([{ path: 'body.name', message: 'Required' }]),
  invalidField: () => errors.invalidField('date', 'That day is not in the season ahead.'),
  malformedJson: () => errors.malformedJson(),
  notFound: () => errors.notFound('That booking'),
  rateLimited: () => errors.rateLimited('Too many attempts. Try again in 5 seconds.', 5),
  badRequest: () => errors.badRequest(),
  payloadTooLarge: () => errors.payloadTooLarge(),
  unsupportedMediaType: () => errors.unsupportedMediaType(),
  serviceUnavailable: () => errors.serviceUnavailable(),
  illegalTransition: () => errors.illegalTransition(),
  notConfirmed: () => errors.notConfirmed(),
  walletUnavailable: () => errors.walletUnavailable(),
  seasonVersionStale: () => errors.seasonVersionStale(),
  seasonVersionRequired: () => errors.seasonVersionRequired(),
  cardPaymentsUnavailable: () => errors.cardPaymentsUnavailable(),
  unauthenticated: () => errors.unauthenticated(),
  sessionEnded: () => errors.sessionEnded(),
  appCheckRequired: () => errors.appCheckRequired(),
  appCheckInvalid: () => errors.appCheckInvalid(),
  attestationFailed: () => errors.attestationFailed(),
  emailNotVerified: () => errors.emailNotVerified(),
  staffNotAllowed: () => errors.staffNotAllowed(),
  staffOnly: () => errors.staffOnly(),
  roleForbidden: () => errors.roleForbidden(),
  locationForbidden: () => errors.locationForbidden(),
  mfaRequired: () => errors.mfaRequired(),
  invalidMfaCode: () => errors.invalidMfaCode(),
  mfaAlreadyEnrolled: () => errors.mfaAlreadyEnrolled(),
  emailInUse: () => errors.emailInUse(),
  invalidCredentials: () => errors.invalidCredentials(),
  redirectNotAllowed: () => errors.redirectNotAllowed(),
  alreadyVerified: () => errors.alreadyVerified(),
  invalidActionCode: () => errors.invalidActionCode(),
  expiredActionCode: () => errors.expiredActionCode(),
  weakPassword: () =>
    errors.weakPassword('That password is too common. Choose something harder to guess', 'body.password'),
  wrongPassword: () => errors.wrongPassword(),
  slotUnavailable: () => errors.slotUnavailable(),
  salesNotOpen: () => errors.salesNotOpen('Westfield Sydney', 'Sat 1 Nov, 9:00 am AEDT'),
  queueNotAdmitted: () => errors.queueNotAdmitted(),
  bookingLimit: () => errors.bookingLimit(5),
  holdLimit: () => errors.holdLimit(),
  holdCooldown: () => errors.holdCooldown(240),
  holdAddressFull: () => errors.holdAddressFull(300),
  holdExpired: () => errors.holdExpired(),
  refreshLimit: () => errors.refreshLimit(),
  priceMismatch: () => errors.priceMismatch(4_500),
  cartInvalid: () => errors.cartInvalid(),
  alreadyPaid: () => errors.alreadyPaid(),
  notMovable: () => errors.notMovable(),
  rescheduleWindowClosed: () => errors.rescheduleWindowClosed(24),
  rescheduleLimit: () => errors.rescheduleLimit(2),
  differentLocation: () => errors.differentLocation(),
  notCancellable: () => errors.notCancellable(),
  disputeClosed: () => errors.disputeClosed(),
  promoInvalid: () => errors.promoInvalid('unknown', 'We do not know the code X.'),
  promoCodeTaken: () => errors.promoCodeTaken(),
  voucherInvalid: () => errors.voucherInvalid('This voucher has nothing left on it.'),
  voucherClaimed: () => errors.voucherClaimed(),
  closureNotConfirmed: () => errors.closureNotConfirmed('Sydney Pitt Street'),
  noClosureOffer: () => errors.noClosureOffer(),
  idempotencyMismatch: () => errors.idempotencyMismatch(),
  rescheduleHold: () => errors.rescheduleHold(),
  sessionClosedForMove: () => errors.sessionClosedForMove(),
  detailsLocked: () => errors.detailsLocked(),
  consentRequired: () => errors.consentRequired('body.consent'),
  consentWordingChanged: () => errors.consentWordingChanged(),
  upcomingBookings: () => errors.upcomingBookings(['KR-1234']),
  notPaid: () => errors.notPaid(),
  noRefund: () => errors.noRefund(),
  refundTooLarge: () => errors.refundTooLarge(500),
  waitlistNotNeeded: () => errors.waitlistNotNeeded(),
  waitlistLimit: () => errors.waitlistLimit(3),
  alreadyWaitlisted: () => errors.alreadyWaitlisted(),
  alreadyBooked: () => errors.alreadyBooked(),
  bookingCancelled: () => errors.bookingCancelled('KR-1234'),
  bookingNotConfirmed: () => errors.bookingNotConfirmed('KR-1234'),
  wrongLocationOrDay: () =>
    errors.wrongLocationOrDay({
      reference: 'KR-1234',
      locationName: 'Westfield Sydney',
      when: 'Sat 6 Dec, 10:40 am AEDT',
      slotTypeName: 'Pet night',
    }),
  sessionNotStarted: () => errors.sessionNotStarted(),
  alreadyCheckedIn: () => errors.alreadyCheckedIn(),
  nothingToUndo: () => errors.nothingToUndo(),
  undoWindowClosed: () => errors.undoWindowClosed(60),
  photoAllowanceUsed: () => errors.photoAllowanceUsed(2),
  photoLocked: () => errors.photoLocked(),
  photosNeedConfirmedBooking: () => errors.photosNeedConfirmedBooking('KR-7K3Q9'),
  photosWrongLocation: () => errors.photosWrongLocation('KR-7K3Q9'),
  onlyJpegPhotos: () => errors.onlyJpegPhotos(),
  photoTooLarge: () => errors.photoTooLarge(30),
  queueAddressFull: () => errors.queueAddressFull(60),
  photosNotKept: () =>
    errors.photosNotKept(
      'PAYLOAD_TOO_LARGE',
      'IMG_1.jpg: 16000 × 16000 pixels (256 megapixels); at most 60 megapixels. Nothing was uploaded.',
      [{ path: 'body.files', message: 'IMG_1.jpg: 16000 × 16000 pixels' }],
    ),
};

describe('error factories', () => {
  it.each(Object.entries(made))("%s answers with its code's status from the catalogue", (_name, make) => {
    const error = make();
    expect(error.statusCode).toBe(ERROR_CATALOGUE[error.code].status);
    expect(error.message).not.toBe('');
  });

  it("uses the catalogue's text unless the situation says more", () => {
    expect(errors.holdExpired().message).toBe(ERROR_CATALOGUE.HOLD_EXPIRED.text);
    expect(errors.validation([]).message).toBe(ERROR_CATALOGUE.VALIDATION_FAILED.text);
    expect(errors.slotUnavailable('Walk-ins are sold for sessions later today only.').message).toBe(
      'Walk-ins are sold for sessions later today only.',
    );
    expect(errors.notFound('That booking').message).toBe('That booking could not be found.');
  });

  it('keeps details and headers', () => {
    expect(errors.rateLimited('Wait.', 7).headers).toEqual({ 'Retry-After': '7' });
    expect(errors.holdCooldown(240).headers).toEqual({ 'Retry-After': '240' });
    expect(errors.holdCooldown(240).message).toContain('wait 4 minutes');
    expect(errors.holdAddressFull(300)).toMatchObject({
      code: 'RATE_LIMITED',
      statusCode: 429,
      headers: { 'Retry-After': '300' },
    });
    expect(errors.holdAddressFull(300).message).toContain('try again in 5 minutes');
    expect(errors.priceMismatch(4_500).details).toEqual([{ path: 'body.amount', message: 'expected 4500' }]);
    expect(errors.weakPassword('Too short', 'body.password').details).toEqual([
      { path: 'body.password', message: 'Too short' },
    ]);
  });
});
