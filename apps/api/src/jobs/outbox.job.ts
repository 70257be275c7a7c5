import type { FastifyInstance } from 'fastify';
import { createMailTransport, smtpTarget } from '../modules/mail/mail-transport';
import { deliverDueMail, OUTBOX_POLICY, pruneOldMail } from '../modules/mail/outbox.service';
import type { Job } from './runner';

export interface OutboxJobOptions {
  /** Overrides SMTP_URL / the embedded catcher (tests point it at their own catcher). */
  smtpUrl?: string;
  intervalMs?: number;
}

/**
 * Sends the mail outbox, and once an hour prunes old sent mail and the dev mailbox. Safe with
 * several API processes: rows are claimed with FOR UPDATE SKIP LOCKED and a lease
 * (modules/mail/outbox.repository.ts); the prune's deletes are idempotent.
 * Returns null when there is nowhere to send mail (no SMTP_URL and no embedded catcher).
 */
export function createOutboxJob(
  app: FastifyInstance,
  options: OutboxJobOptions = {},
): (Job & { close(): void }) | null {
  const url = options.smtpUrl ?? smtpTarget(app.config);
  if (!url) return null;
  const transport = createMailTransport(url);
  let prunedAt = -Infinity;
  return {
    name: 'mail-outbox',
    intervalMs: options.intervalMs ?? 1000,
    async run() {
      await deliverDueMail({ db: app.db, clock: app.clock, transport, from: app.config.MAIL_FROM, log: app.log });
      // Without this, mail_outbox and dev_mailbox grow for ever (a row per mail, attachments included).
      const now = app.clock.now().getTime();
      if (now - prunedAt >= OUTBOX_POLICY.pruneEveryMs) {
        prunedAt = now;
        const pruned = await pruneOldMail(app);
        if (pruned.outbox || pruned.devMailbox) app.log.info(pruned, 'old mail pruned');
      }
    },
    close: () => transport.close(),
  };
}
