import type { FastifyInstance } from 'fastify';
import { enqueueMail } from '../mail/outbox.repository';
import { bookingDetails } from '../booking-lifecycle/booking-rows.repository';
import { noShowInviteMail } from '../booking-lifecycle/no-show.emails';
import {
  lockDueNoShowInvites,
  lockUnattendedEnded,
  markNoShowInviteSent,
} from '../booking-lifecycle/reminders.repository';
import { markNoShow } from '../booking-lifecycle/booking-change-transitions';
import { SYSTEM } from '../audit-trail/audit-entries.repository';

/** Sessions that ended longer ago than this are left alone (a release does not mail last season's no-shows). */
const LOOK_BACK_MS = 2 * 86_400_000;

/**
 * Families marked no-show get one "book again" e-mail once their session is over (issue 56). Sent
 * after the end, not at the mark: a family running late is often checked in over its no-show, and
 * an undone mark sends nothing. Marking and queueing share a transaction, so it goes once whatever
 * the number of processes. With AUTO_NO_SHOW on, a session over without a check-in is marked
 * no-show first (by the system, in the audit trail), and invited in the same run.
 */
export async function sendDueNoShowInvites(
  app: Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'log'>,
): Promise<number> {
  const now = app.clock.now();
  const since = new Date(now.getTime() - LOOK_BACK_MS);
  return app.db.transaction(async (tx) => {
    if (app.config.AUTO_NO_SHOW)
      for (const b of await lockUnattendedEnded(tx, now, since))
        await markNoShow({ tx, now, log: app.log, actor: SYSTEM }, b);
    const due = await lockDueNoShowInvites(tx, now, since);
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
