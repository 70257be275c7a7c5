import type { FastifyInstance } from 'fastify';
import { AccountActionsService } from '../modules/accounts/account-actions.service';
import type { Job } from './runner';

/**
 * Password-reset requests that the answering process did not finish: it died between the answer
 * and the commit, or the database failed meanwhile (retried with back-off). The answering
 * process normally handles its own at once, so this usually finds nothing. SKIP LOCKED in the
 * claim makes it safe beside that and beside other processes.
 */
export function resetRequestsJob(app: FastifyInstance, intervalMs = 5_000): Job {
  const actions = new AccountActionsService(app.db, app.clock, {
    brandName: app.config.BRAND_NAME,
    appOrigins: app.config.APP_ORIGINS,
    sessionsEnded: (ended) => app.sessionCutoffs.raise(ended.userId, ended.epoch, ended.endedAtMs),
    onBackgroundError: (err) => app.log.error({ err }, 'password reset request failed (will retry)'),
  });
  return {
    name: 'password-reset-requests',
    intervalMs,
    async run() {
      await actions.processResetRequests();
    },
  };
}
