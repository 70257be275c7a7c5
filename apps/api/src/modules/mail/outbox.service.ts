import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { MailTransport } from './mail-transport';
import { claimDueMail, markMailAttemptFailed, markMailSent, pruneMail, type ClaimedMail } from './outbox.repository';

export const OUTBOX_POLICY = {
  /** Attempts before a mail is given up as `failed` (about 1 h 10 min of retries in all). */
  maxAttempts: 8,
  firstRetryMs: 30_000,
  maxRetryMs: 60 * 60_000,
  /** Longer than the transport's own timeouts, so a live send never loses its lease. */
  leaseMs: 5 * 60_000,
  batchSize: 20,
  /** Sent mail is kept this long (a support person can still see what went out), then pruned. */
  sentRetentionDays: 30,
  /** The dev mailbox keeps a week of caught mail, and at most this many messages. */
  devMailboxRetentionDays: 7,
  devMailboxKeep: 1_000,
  /** How often a process prunes (any process may: the deletes are idempotent). */
  pruneEveryMs: 60 * 60_000,
};

const DAY_MS = 24 * 60 * 60_000;

/** Prunes old sent mail and the dev mailbox (OUTBOX_POLICY); returns how many rows went. */
export async function pruneOldMail(
  deps: Pick<OutboxDeps, 'db' | 'clock'>,
): Promise<{ outbox: number; devMailbox: number }> {
  const now = deps.clock.now().getTime();
  return pruneMail(deps.db, {
    sentBefore: new Date(now - OUTBOX_POLICY.sentRetentionDays * DAY_MS),
    caughtBefore: new Date(now - OUTBOX_POLICY.devMailboxRetentionDays * DAY_MS),
    keepCaught: OUTBOX_POLICY.devMailboxKeep,
  });
}

/** Exponential backoff after the n-th failed attempt: 30 s, 1 min, 2 min, … capped at 1 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(OUTBOX_POLICY.firstRetryMs * 2 ** (attempts - 1), OUTBOX_POLICY.maxRetryMs);
}

export interface OutboxDeps {
  db: Db;
  clock: Clock;
  transport: MailTransport;
  from: string;
  log: FastifyBaseLogger;
}

/** One pass: claims due mail, sends each, records the outcome. Returns how many were sent. */
export async function deliverDueMail(deps: OutboxDeps): Promise<number> {
  const now = deps.clock.now();
  const claimed = await claimDueMail(
    deps.db,
    now,
    new Date(now.getTime() + OUTBOX_POLICY.leaseMs),
    OUTBOX_POLICY.batchSize,
  );
  let sent = 0;
  for (const mail of claimed) {
    if (await deliverOne(deps, mail)) sent += 1;
  }
  return sent;
}

async function deliverOne(deps: OutboxDeps, mail: ClaimedMail): Promise<boolean> {
  try {
    await deps.transport.sendMail({
      from: deps.from,
      to: mail.to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      headers: mail.headers,
      attachments: mail.attachments.map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        content: a.content,
        encoding: 'base64',
        ...(a.cid ? { cid: a.cid } : {}),
      })),
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const giveUp = mail.attempts >= OUTBOX_POLICY.maxAttempts;
    const retryAt = giveUp ? null : new Date(deps.clock.now().getTime() + retryDelayMs(mail.attempts));
    await markMailAttemptFailed(deps.db, mail.id, message, retryAt);
    // The id finds the row (last_error has the full message); SMTP messages can hold addresses, so logs get only the
    // code.
    const code = (err as { code?: unknown; responseCode?: unknown }).responseCode ?? (err as { code?: unknown }).code;
    deps.log[giveUp ? 'error' : 'warn'](
      { mailId: mail.id, attempts: mail.attempts, code },
      giveUp ? 'mail given up' : 'mail send failed, will retry',
    );
    return false;
  }
  // Outside the try: if this write fails the lease runs out and the mail is sent again
  // (at-least-once), rather than being recorded as an SMTP failure.
  await markMailSent(deps.db, mail.id, deps.clock.now());
  return true;
}
