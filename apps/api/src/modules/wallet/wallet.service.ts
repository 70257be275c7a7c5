import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { errors, notFound } from '../../lib/errors';
import { bookingDetails } from '../booking-lifecycle/booking-rows.repository';
import { buildApplePass, passAuthToken } from './apple-pass';
import { googleSaveUrl, googleTicketObject } from './google-pass';
import type { GoogleObjectUpdater } from './google-wallet-api';
import type { PassPusher } from './apns';
import { walletUpdatesTotal } from '../operations/metrics';
import {
  lockDueGoogleObjects,
  lockDuePushes,
  markGoogleSynced,
  markPushed,
  passState,
  rememberGoogleObject,
} from './wallet.repository';
import type { WalletKeyring } from './wallet-keys';

declare module 'fastify' {
  interface FastifyInstance {
    walletKeys: WalletKeyring;
  }
}

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'walletKeys'>;

async function ownConfirmed(deps: Deps, userId: string, bookingId: string) {
  const state = await passState(deps.db, bookingId);
  if (!state || state.userId !== userId) throw notFound('That booking');
  if (state.status !== 'completed') throw errors.notConfirmed();
  return state;
}

async function passOf(deps: Deps, bookingId: string, updatedAt: Date): Promise<Buffer> {
  const keys = await deps.walletKeys.get();
  if (!keys.apple) throw errors.walletUnavailable();
  return buildApplePass(await bookingDetails(deps.db, bookingId), {
    certificates: keys.apple,
    brandName: deps.config.BRAND_NAME,
    webServiceUrl: `${deps.config.PUBLIC_URL}/api/v1/wallet/apple`,
    authToken: passAuthToken(keys.authKey, bookingId),
    updatedAt,
  });
}

/** GET /bookings/{id}/wallet.pkpass: the family's own confirmed booking. */
export async function familyApplePass(deps: Deps, userId: string, bookingId: string) {
  const state = await ownConfirmed(deps, userId, bookingId);
  return { pass: await passOf(deps, bookingId, state.updatedAt), updatedAt: state.updatedAt };
}

/** GET /bookings/{id}/wallet/google */
export async function familyGoogleSaveUrl(deps: Deps, userId: string, bookingId: string): Promise<string> {
  await ownConfirmed(deps, userId, bookingId);
  const keys = await deps.walletKeys.get();
  if (!keys.google) throw errors.walletUnavailable();
  // Whether the family saves it is Google's to know: from the link on, its changes are sent (a 404 if not saved).
  await rememberGoogleObject(deps.db, bookingId);
  return googleSaveUrl(await bookingDetails(deps.db, bookingId), keys.google, {
    brandName: deps.config.BRAND_NAME,
    origin: deps.config.PUBLIC_URL,
    now: deps.clock.now(),
  });
}

/**
 * The PassKit web service's check (Apple's "Authorization: ApplePass <token>"): the pass type
 * must be ours and the token the one this booking's pass carries; anything else is 401.
 */
export async function authorisedPass(
  deps: Deps,
  passTypeId: string,
  serial: string,
  authorization: string | undefined,
): Promise<{ status: string; updatedAt: Date } | null> {
  const keys = await deps.walletKeys.get();
  if (!keys.apple || passTypeId !== keys.apple.passTypeId) return null;
  if (!/^[0-9a-f-]{36}$/i.test(serial)) return null;
  const given = Buffer.from(/^ApplePass (.+)$/.exec(authorization ?? '')?.[1] ?? '');
  const expected = Buffer.from(passAuthToken(keys.authKey, serial));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return passState(deps.db, serial);
}

/** The latest pass for the web service (a cancelled booking's comes voided). */
export const latestPass = (deps: Deps, bookingId: string, updatedAt: Date) => passOf(deps, bookingId, updatedAt);

export async function ourPassType(deps: Deps, passTypeId: string): Promise<boolean> {
  const keys = await deps.walletKeys.get();
  return keys.apple?.passTypeId === passTypeId;
}

/**
 * One pass of the push job: each device whose pass changed since its last push (a reschedule,
 * a closure, a cancel, new names) is pushed once; a failed push stays due and is tried again.
 */
export async function pushChangedPasses(deps: Deps, pusher: PassPusher, log: FastifyInstance['log']): Promise<number> {
  const keys = await deps.walletKeys.get();
  if (!keys.apple) return 0;
  const passTypeId = keys.apple.passTypeId;
  return deps.db.transaction(async (tx) => {
    const due = await lockDuePushes(tx);
    let pushed = 0;
    for (const p of due) {
      try {
        await pusher.push(p.pushToken, passTypeId);
        await markPushed(tx, p);
        pushed += 1;
        walletUpdatesTotal.labels('apple', 'sent').inc();
      } catch (err) {
        walletUpdatesTotal.labels('apple', 'failed').inc();
        log.warn({ err, bookingId: p.bookingId }, 'wallet pass push failed, will retry');
      }
    }
    return pushed;
  });
}

/**
 * One pass of the Google sync job: each saved-link booking that changed since Google last got it
 * (a reschedule, a closure's move, a cancel, new names) is sent as its object again, once; a failed
 * update stays due and is tried again. Returns how many were sent.
 */
export async function syncGoogleObjects(
  deps: Deps,
  updater: GoogleObjectUpdater,
  log: FastifyInstance['log'],
): Promise<number> {
  const keys = await deps.walletKeys.get();
  if (!keys.google) return 0;
  const google = keys.google;
  return deps.db.transaction(async (tx) => {
    let sent = 0;
    for (const due of await lockDueGoogleObjects(tx)) {
      try {
        const object = googleTicketObject(await bookingDetails(tx, due.bookingId), google);
        const { id, ...fields } = object;
        await updater.update(id, fields);
        await markGoogleSynced(tx, due.bookingId, due.version);
        sent += 1;
        walletUpdatesTotal.labels('google', 'sent').inc();
      } catch (err) {
        walletUpdatesTotal.labels('google', 'failed').inc();
        log.warn({ err, bookingId: due.bookingId }, 'Google Wallet update failed, will retry');
      }
    }
    return sent;
  });
}
