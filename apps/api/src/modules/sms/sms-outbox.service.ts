import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { retryDelayMs, OUTBOX_POLICY } from '../mail/outbox.service';
import type { SmsProvider } from './sms-provider';
import { claimDueSms, isStopped, markSmsAttemptFailed, markSmsSent, markSmsSuppressed } from './sms.repository';

export interface SmsOutboxDeps {
  db: Db;
  clock: Clock;
  provider: SmsProvider;
  log: FastifyBaseLogger;
}

/**
 * One pass of the SMS outbox: claims due rows, sends each (a STOP that arrived after the row was
 * queued still stops it), records the outcome with the mail outbox's retry schedule.
 */
export async function deliverDueSms(deps: SmsOutboxDeps): Promise<number> {
  const now = deps.clock.now();
  const claimed = await claimDueSms(
    deps.db,
    now,
    new Date(now.getTime() + OUTBOX_POLICY.leaseMs),
    OUTBOX_POLICY.batchSize,
  );
  let sent = 0;
  for (const sms of claimed) {
    if (await isStopped(deps.db, sms.to)) {
      await markSmsSuppressed(deps.db, sms.id, 'stopped');
      continue;
    }
    let providerId: string;
    try {
      providerId = await deps.provider.send(sms.to, sms.body);
    } catch (err) {
      const giveUp = sms.attempts >= OUTBOX_POLICY.maxAttempts;
      const retryAt = giveUp ? null : new Date(deps.clock.now().getTime() + retryDelayMs(sms.attempts));
      await markSmsAttemptFailed(deps.db, sms.id, err instanceof Error ? err.message : String(err), retryAt);
      // The id finds the row; the number stays out of the logs.
      deps.log[giveUp ? 'error' : 'warn'](
        { smsId: sms.id, attempts: sms.attempts },
        giveUp ? 'SMS given up' : 'SMS send failed, will retry',
      );
      continue;
    }
    await markSmsSent(deps.db, sms.id, deps.clock.now(), providerId);
    sent += 1;
  }
  return sent;
}
