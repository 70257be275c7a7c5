import type { DbOrTx } from '../../db/client';
import { liveConsent } from './consents.repository';
import { unsubscribeToken, unsubscribeUrl } from './unsubscribe-links';

/**
 * What a mail needs to carry news or an offer to one family (Spam Act 2003, decision 0097), or
 * null when the family has not opted in: then the mail says only the facts. Read in the caller's
 * transaction, so a mail queued after an unsubscribe has committed carries no offer.
 *
 * `headers` are RFC 2369's List-Unsubscribe with RFC 8058's List-Unsubscribe-Post: a mail app's
 * own "Unsubscribe" button POSTs to the link and the news stop at once, with no page to visit.
 * (RFC 8058 also asks for a DKIM signature covering both; the SMTP relay signs, docs/compliance.md.)
 */
export interface Promotion {
  unsubscribeUrl: string;
  headers: Record<string, string>;
}

export async function promotionFor(
  db: DbOrTx,
  user: { id: string },
  publicUrl: string,
  now: Date,
): Promise<Promotion | null> {
  if (!(await liveConsent(db, user.id, 'marketing_email', now))) return null;
  const url = unsubscribeUrl(publicUrl, await unsubscribeToken(db, user.id));
  return {
    unsubscribeUrl: url,
    headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
