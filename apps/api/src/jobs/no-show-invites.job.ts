import type { FastifyInstance } from 'fastify';
import { sendDueNoShowInvites } from '../modules/bookings/no-show-invites.service';
import type { Job } from './runner';

export function noShowInvitesJob(app: FastifyInstance): Job {
  return { name: 'no-show-invites', intervalMs: 5 * 60_000, run: async () => void (await sendDueNoShowInvites(app)) };
}
