import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { reminderMail } from '../modules/bookings/bookings.emails';
import { enqueueMail } from '../modules/mail/outbox.repository';
import { bookingDetails } from '../modules/payments/payments.repository';
import type { Job } from './runner';

/**
 * The day-before reminder: confirmed bookings whose session starts within 24 hours (and not
 * within the next hour) get one e-mail. Marking and queueing happen in one transaction with
 * SKIP LOCKED, so it goes once whatever the number of processes.
 */
export async function sendDueReminders(app: Pick<FastifyInstance, 'db' | 'clock' | 'config'>): Promise<number> {
  const now = app.clock.now();
  return app.db.transaction(async (tx) => {
    const due = await tx.execute(sql`
      select b.id from bookings b join slots s on s.id = b.slot_id
      where b.status = 'completed' and b.source = 'online' and b.reminder_sent_at is null
        and s.start_at > ${new Date(now.getTime() + 3_600_000).toISOString()}::timestamptz
        and s.start_at <= ${new Date(now.getTime() + 86_400_000).toISOString()}::timestamptz
      limit 200 for update of b skip locked`);
    for (const row of due.rows) {
      const id = row.id as string;
      await tx.execute(sql`update bookings set reminder_sent_at = ${now.toISOString()}::timestamptz where id = ${id}::uuid`);
      await enqueueMail(tx, reminderMail(await bookingDetails(tx, id), app.config.BRAND_NAME, app.config.PUBLIC_URL));
    }
    return due.rows.length;
  });
}

export function remindersJob(app: FastifyInstance): Job {
  return { name: 'reminders', intervalMs: 5 * 60_000, run: async () => void (await sendDueReminders(app)) };
}
