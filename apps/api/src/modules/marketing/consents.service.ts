import {
  FAMILY_CONSENT_KINDS,
  FAMILY_CONSENTS,
  type FamilyConsent,
  type FamilyConsentKind,
  type SetFamilyConsentBody,
} from '@kringle/contracts/family-consents';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client';
import { errors } from '../../lib/errors';
import { familyActor, insertAuditEntry } from '../audit-trail/audit-entries.repository';
import {
  endConsent,
  insertConsent,
  liveConsent,
  liveConsents,
  lockFamily,
  type ConsentRow,
  type WithdrawnVia,
} from './consents.repository';
import { userOfToken } from './unsubscribe-links';

type Deps = Pick<FastifyInstance, 'db' | 'clock'>;
const DAY_MS = 86_400_000;

function view(kind: FamilyConsentKind, row: ConsentRow | undefined, now: Date): FamilyConsent {
  const words = FAMILY_CONSENTS[kind];
  const live = row && (!row.expiresAt || row.expiresAt > now) ? row : undefined;
  return {
    kind,
    given: live !== undefined,
    label: words.label,
    text: words.text,
    wordingVersion: words.version,
    givenAt: live?.givenAt.toISOString() ?? null,
    expiresAt: live?.expiresAt?.toISOString() ?? null,
    agreedVersion: live?.wordingVersion ?? null,
  };
}

/** GET /user/consents: every choice, off unless the parent turned it on (and it has not lapsed). */
export async function familyConsents(deps: Deps, userId: string): Promise<FamilyConsent[]> {
  const rows = await liveConsents(deps.db, userId);
  const now = deps.clock.now();
  return FAMILY_CONSENT_KINDS.map((kind) =>
    view(
      kind,
      rows.find((r) => r.kind === kind),
      now,
    ),
  );
}

async function withdrawIn(tx: Tx, userId: string, kind: FamilyConsentKind, via: WithdrawnVia, now: Date) {
  const ended = await endConsent(tx, userId, kind, via, now);
  if (ended)
    await insertAuditEntry(tx, {
      at: now,
      actor: familyActor(userId),
      action: 'family.consent_withdrawn',
      bookingId: null,
      orderId: null,
      reason: via === 'unsubscribe' ? 'unsubscribe link' : null,
      before: { kind, wordingVersion: ended.wordingVersion, givenAt: ended.givenAt.toISOString() },
      after: { kind, withdrawnVia: via },
    });
  return ended;
}

/**
 * PUT /user/consents/{kind}: on with the words the parent saw (409 CONSENT_WORDING_CHANGED when
 * they are not the words in force), or off. Turning on what is already on with the same words
 * changes nothing; on again after the words changed or the consent lapsed ends the old record
 * (`renewed`) and starts a new one, so each version agreed to keeps its own row.
 */
export async function setFamilyConsent(
  deps: Deps,
  userId: string,
  kind: FamilyConsentKind,
  body: SetFamilyConsentBody,
): Promise<FamilyConsent> {
  const words = FAMILY_CONSENTS[kind];
  if (body.given && body.wordingVersion !== words.version) throw errors.consentWordingChanged();
  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    if (!(await lockFamily(tx, userId))) throw errors.notFound('That account');
    if (!body.given) {
      await withdrawIn(tx, userId, kind, 'account', now);
      return undefined;
    }
    const live = await liveConsent(tx, userId, kind, now);
    if (live && live.wordingVersion === words.version) return live;
    await endConsent(tx, userId, kind, live ? 'renewed' : 'expired', now);
    const given = await insertConsent(tx, {
      userId,
      kind,
      wordingVersion: words.version,
      givenAt: now,
      expiresAt: words.days === null ? null : new Date(now.getTime() + words.days * DAY_MS),
    });
    await insertAuditEntry(tx, {
      at: now,
      actor: familyActor(userId),
      action: 'family.consent_given',
      bookingId: null,
      orderId: null,
      reason: null,
      before: live ? { kind, wordingVersion: live.wordingVersion } : { kind, given: false },
      after: { kind, wordingVersion: given.wordingVersion, expiresAt: given.expiresAt?.toISOString() ?? null },
    });
    return given;
  });
  return view(kind, row, now);
}

/**
 * The one-click unsubscribe (RFC 8058): news and offers off at once, in this request, for the
 * account the link names. A forged link is 404; a second click finds nothing to end and answers
 * the same, so a mail client's retry is harmless.
 */
export async function unsubscribe(deps: Deps, token: string): Promise<void> {
  const userId = await userOfToken(deps.db, token);
  if (!userId) throw errors.notFound('That unsubscribe link');
  await deps.db.transaction(async (tx) => {
    await lockFamily(tx, userId);
    await withdrawIn(tx, userId, 'marketing_email', 'unsubscribe', deps.clock.now());
  });
}

/** An account being deleted: every consent ends with it (the rows stay as the record). */
export async function endConsentsOnDeletion(tx: Tx, userId: string, now: Date): Promise<void> {
  for (const kind of FAMILY_CONSENT_KINDS) await endConsent(tx, userId, kind, 'deletion', now);
}
