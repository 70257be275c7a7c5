import type { FastifyInstance } from 'fastify';
import { sendDueReminders } from '../modules/bookings/reminders.service';
import type { Job } from './runner';

export function remindersJob(app: FastifyInstance): Job {
  return { name: 'reminders', intervalMs: 5 * 60_000, run: async () => void (await sendDueReminders(app)) };
}
