import type { FastifyInstance } from 'fastify';
import { answerOffer } from '../modules/closures/closure-remedies.service';
import { dueOffers, runningClosures } from '../modules/closures/closures.repository';
import { runClosure } from '../modules/closures/closures.service';
import type { Job } from './runner';

/**
 * Closures (decision 0055): remedies the bookings of running closures, one claimed row at a time,
 * and refunds in full the move offers nobody answered in CLOSURE_OFFER_HOURS. Every two seconds,
 * so a closure started on any process begins within about that. Multi-process safe: the rows are
 * claimed with FOR UPDATE SKIP LOCKED, an offer's answer locks its row and re-checks it.
 */
export function closuresPass(app: FastifyInstance): () => Promise<void> {
  return async () => {
    for (const id of await runningClosures(app.db, 20)) await runClosure(app, id);
    for (const bookingId of await dueOffers(app.db, app.clock.now(), 100))
      await answerOffer(app, bookingId, 'expire', null);
  };
}

export function closuresJob(app: FastifyInstance): Job {
  return { name: 'closures', intervalMs: 2000, run: closuresPass(app) };
}
