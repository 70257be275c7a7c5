import type { FastifyInstance } from 'fastify';
import { stageDueEvidence } from '../modules/disputes/disputes.service';
import type { Job } from './runner';

/** Evidence drafts that did not reach Stripe when their dispute arrived (issue 56). */
export function disputeEvidenceJob(app: FastifyInstance): Job {
  return { name: 'dispute-evidence', intervalMs: 60_000, run: async () => void (await stageDueEvidence(app)) };
}
