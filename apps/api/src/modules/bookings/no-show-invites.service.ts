import type { FastifyInstance } from 'fastify';
import { enqueueMail } from '../mail/outbox.repository';
import { bookingDetails } from '../booking-lifecycle/booking-rows.repository';
import { noShowInviteMail } from '../booking-lifecycle/no-show.emails';
import { lockDueNoShowInvites, markNoShowInviteSent } from '../booking-lifecycle/reminders.repository';

/**
 * Families marked no-show get one "book again" e-mail once their session is over (issue 56). Sent
 * after the end, not at the mark: a family running late is often checked in over its no-show, and
 * an undone mark sends nothing. Marking and queueing share a transaction, so it goes once whatever
 * the number of processes.
 */
export async function sendDueNoShowInvites(app: Pick<FastifyInstance, 'db' | 'clock' | 'config'>): Promise<number> {
  const now = app.clock.now();
  return app.db.transaction(async (tx) => {
    const due = await lockDueNoShowInvites(tx, now);
    for (const id of due) {
      await markNoShowInviteSent(tx, id, now);
      await enqueueMail(
        tx,
        noShowInviteMail(await bookingDetails(tx, id), app.config.BRAND_NAME, app.config.PUBLIC_URL),
      );
    }
    return due.length;
  });
}
