import type { DbOrTx } from '../../db/client';
import { mailOutbox, type MailAttachment } from '../../db/schema/mail';

export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments?: MailAttachment[];
}

/**
 * Queues a mail in the caller's transaction, so it is sent if and only if the change that
 * caused it commits. The outbox job delivers it with retries.
 */
export async function enqueueMail(db: DbOrTx, mail: OutgoingMail): Promise<void> {
  await db.insert(mailOutbox).values({
    toAddress: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    attachments: mail.attachments ?? [],
  });
}
