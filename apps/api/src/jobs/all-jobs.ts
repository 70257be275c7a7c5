import type { FastifyInstance } from 'fastify';
import { auditSealJob } from './audit-seal.job';
import { detailsRetentionJob } from './details-retention.job';
import { holdExpiryJob } from './hold-expiry.job';
import { lapsedCheckoutsJob } from './lapsed-checkouts.job';
import { photoRetentionJob } from './photo-retention.job';
import { paymentReconciliationJob } from './payment-reconciliation.job';
import { refundsJob } from './refunds.job';
import { noShowInvitesJob } from './no-show-invites.job';
import { disputeEvidenceJob } from './dispute-evidence.job';
import { remindersJob } from './reminders.job';
import { resetRequestsJob } from './reset-requests.job';
import { createOutboxJob } from './outbox.job';
import type { Job } from './runner';
import { waitlistJob } from './waitlist.job';
import { queueJob } from './queue.job';
import { closuresJob } from './closures.job';
import { creditExpiryJob } from './credit-expiry.job';
import { privacyPurgesJob } from './privacy-purges.job';
import { paymentPageCheckJob } from './payment-page-check.job';
import { createSmsOutboxJob } from './sms-outbox.job';
import { walletPushJob } from './wallet-push.job';
import { googleWalletSyncJob } from './google-wallet-sync.job';

/** Every background job the API runs (each one multi-process safe). */
export function allJobs(app: FastifyInstance): Job[] {
  const jobs: Job[] = [
    holdExpiryJob(app),
    lapsedCheckoutsJob(app),
    paymentReconciliationJob(app),
    refundsJob(app),
    remindersJob(app),
    noShowInvitesJob(app),
    disputeEvidenceJob(app),
    resetRequestsJob(app),
    detailsRetentionJob(app),
    waitlistJob(app),
    queueJob(app),
    photoRetentionJob(app),
    closuresJob(app),
    privacyPurgesJob(app),
    auditSealJob(app),
    paymentPageCheckJob(app),
    walletPushJob(app),
    googleWalletSyncJob(app),
    creditExpiryJob(app),
  ];
  const outbox = createOutboxJob(app);
  if (outbox) jobs.push(outbox);
  else app.log.warn('no SMTP_URL and no embedded mail catcher: e-mail stays queued in mail_outbox');
  const sms = createSmsOutboxJob(app);
  if (sms) jobs.push(sms);
  else app.log.warn('no SMS_PROVIDER: SMS stay queued in sms_outbox');
  return jobs;
}
