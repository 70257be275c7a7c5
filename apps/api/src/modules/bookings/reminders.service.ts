import type { FastifyInstance } from 'fastify';
import { enqueueMail } from '../mail/outbox.repository';
import { textFamily } from '../sms/family-sms';
import { reminderSms } from '../sms/sms-texts';
import { bookingDetails } from '../booking-lifecycle/booking-rows.repository';
import { reminderMail } from '../booking-lifecycle/bookings.emails';
import { lockDueReminders, markReminderSent } from '../booking-lifecycle/reminders.repository';

const HOUR_MS = 3_600_000;

/**
 * The day-before reminder (by e-mail, and by SMS for families who opted in): confirmed bookings whose session starts
 * within 24 hours (and not
 * within the next hour) get one e-mail. Marking and queueing happen in one transaction, so it
 * goes once whatever the number of processes.
 */
export async function sendDueReminders(app: Pick<FastifyInstance, 'db' | 'clock' | 'config'>): Promise<number> {
  const now = app.clock.now();
  return app.db.transaction(async (tx) => {
    const due = await lockDueReminders(tx, new Date(now.getTime() + HOUR_MS), new Date(now.getTime() + 24 * HOUR_MS));
    for (const id of due) {
      await markReminderSent(tx, id, now);
      const d = await bookingDetails(tx, id);
      await enqueueMail(tx, reminderMail(d, app.config.BRAND_NAME, app.config.PUBLIC_URL, now));
      // By SMS too, only for families who opted in (PATCH /user/me sms.reminders; decision 0100).
      await textFamily(tx, app.config, {
        userId: d.booking.userId,
        bookingId: id,
        kind: 'reminder',
        body: reminderSms(app.config.BRAND_NAME, { ...d, reference: d.booking.reference }),
        now,
      });
    }
    return due.length;
  });
}
