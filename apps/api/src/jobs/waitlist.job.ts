import type { FastifyInstance } from 'fastify';
import { waitlistPass } from '../modules/waitlist/waitlist.hand-off';
import type { Job } from './runner';

/**
 * The waitlist (decision 0028): closes offers that are over and offers what the free
 * announcements did not place (a hold that lapsed without a write, a message missed, a restart).
 * Every second: a lapsed hold on a waited-for day reaches the next family within about that.
 * Multi-process safe: every row is taken with FOR UPDATE SKIP LOCKED.
 */
export function waitlistJob(app: FastifyInstance): Job {
  return { name: 'waitlist', intervalMs: 1000, run: waitlistPass(app) };
}
