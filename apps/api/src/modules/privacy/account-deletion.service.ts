import { normaliseEmail } from '@kringle/contracts/email';
import type { DeleteAccountBody, DeleteAccountResult } from '@kringle/contracts/privacy';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../lib/errors';
import { verifyPassword } from '../accounts/passwords';
import { endAllSessions } from '../accounts/session-cutoffs.repository';
import { findUserById } from '../accounts/users.repository';
import { cancelBooking } from '../bookings/cancel.service';
import { endConsentsOnDeletion } from '../marketing/consents.service';
import { deleteBookingPhotos } from '../photos/photo-retention.service';
import { listLiveEntries } from '../waitlist/waitlist.repository';
import { leaveWaitlist } from '../waitlist/waitlist.service';
import { anonymiseAccount, bookingIdsOf, upcomingBookingsOf } from './account-deletion.repository';
import { transactionWithRetry } from '../../db/retry-transaction';
import { creditBackToCard } from '../order-payments/credit-moves';
import { sendRefund } from '../payments/refunds.service';
import { familyActor } from '../audit-trail/audit-entries.repository';

/**
 * DELETE /user (API.md "Privacy", decision 0058): the password again and the e-mail typed to
 * confirm. Upcoming bookings refuse it (409 UPCOMING_BOOKINGS) unless the family said to cancel
 * them: each is then cancelled as the family's own cancel would be (the named transition, the
 * policy's refund, the e-mail). Then waitlist places go, photos go, and one transaction removes
 * names, e-mail and phone and revokes every session.
 */
export async function deleteAccount(
  app: FastifyInstance,
  userId: string,
  body: DeleteAccountBody,
): Promise<DeleteAccountResult> {
  const user = await findUserById(app.db, userId);
  if (!user || user.deletedAt) throw errors.sessionEnded();
  if (!(await verifyPassword(user.passwordHash, body.password)))
    throw errors.invalidField('body.password', 'The password is not right.');
  if (normaliseEmail(body.confirmEmail) !== user.email)
    throw errors.invalidField('body.confirmEmail', 'Type the e-mail address of this account exactly.');

  const upcoming = await upcomingBookingsOf(app.db, userId, app.clock.now());
  if (upcoming.length > 0 && body.cancelUpcoming !== true)
    throw errors.upcomingBookings(upcoming.map((b) => b.reference));
  const cancelled: DeleteAccountResult['cancelled'] = [];
  for (const b of upcoming) {
    const result = await cancelBooking(app, userId, b.id, { reason: 'account_deleted' });
    cancelled.push({ reference: b.reference, refundCents: result.refund?.amountCents ?? 0 });
  }

  for (const entry of await listLiveEntries(app.db, userId, app.clock.now())) {
    await leaveWaitlist(app, userId, entry.id).catch((err: unknown) =>
      app.log.warn({ err, entryId: entry.id }, 'waitlist entry ended meanwhile'),
    );
  }
  await deleteBookingPhotos(app, await bookingIdsOf(app.db, userId));

  const now = app.clock.now();
  const { ended, toCard } = await transactionWithRetry(app.db, async (tx) => {
    const toCard = await creditBackToCard({ tx, now, log: app.log, actor: familyActor(userId) }, userId);
    await anonymiseAccount(tx, userId, user.email, now);
    await endConsentsOnDeletion(tx, userId, now);
    return { ended: await endAllSessions(tx, userId, now), toCard };
  });
  // Credit left goes back to the cards; one Stripe cannot take now stays pending for the refunds job.
  for (const refundId of toCard) await sendRefund(app, refundId);
  // ID tokens already issued are refused at once, here and (by NOTIFY) on every process: decision 0063.
  app.sessionCutoffs.raise(ended.userId, ended.epoch, ended.endedAtMs);
  app.log.info({ userId, cancelled: cancelled.length }, 'account deleted at the family’s request');
  return { deleted: true, cancelled };
}
