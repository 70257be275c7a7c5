import { randomBytes } from 'node:crypto';
import { RECOVERY_CODE_COUNT, type MfaConfirmResponse, type MfaSetupResponse } from '@kringle/contracts/staff-accounts';
import { Secret, TOTP } from 'otpauth';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import { markFamilyTwoFactor } from '../accounts/refresh-tokens.repository';
import { endPasswordOnlySessions, type SessionsEnded } from '../accounts/session-cutoffs.repository';
import { randomToken, sha256 } from '../accounts/secure-tokens';
import * as users from '../accounts/users.repository';
import { insertAuditEntry } from '../audit-trail/audit-entries.repository';
import { clearWrongCodes, countWrongCode, lockedUntil, mfaLockedError } from './mfa-lockout';
import type { MfaSecretBox } from './mfa-secret-box';
import * as repo from './staff-accounts.repository';

declare module 'fastify' {
  interface FastifyInstance {
    mfa: MfaService;
  }
}

/** The token between the two sign-in steps: single use, and short (a code is typed in seconds). */
export const MFA_TOKEN_TTL_MS = 5 * 60 * 1000;
/** RFC 6238 as every authenticator app does it: SHA-1, 6 digits, 30 s (API.md). */
const TOTP_PERIOD = 30;
/** One step either side: a phone's clock a little off, or a code typed as it turned over. */
const TOTP_WINDOW = 1;

/** Recovery codes: 10 lower-case letters and digits as `xxxxx-xxxxx` (50 bits each). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = Array.from(bytes, (b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]!);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}
/** Typed back with or without the dash, in any case, with stray spaces. */
const normaliseRecovery = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/**
 * The TOTP second factor (decision 0050) with the `otpauth` library (RFC 6238, not hand-rolled):
 * enrolment (setup, then a first code confirms it and gives ten recovery codes, stored hashed),
 * and the second step of a staff sign-in. A TOTP code is usable once: the last accepted time step
 * is kept and only a later one passes.
 */
export class MfaService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly box: MfaSecretBox,
    private readonly issuer: string,
  ) {}

  private totp(secretBase32: string, label: string): TOTP {
    return new TOTP({
      issuer: this.issuer,
      label,
      algorithm: 'SHA1',
      digits: 6,
      period: TOTP_PERIOD,
      secret: Secret.fromBase32(secretBase32),
    });
  }

  /** A new secret (replacing an unconfirmed one); refused once enrolled (409 MFA_ALREADY_ENROLLED). */
  async setup(userId: string): Promise<MfaSetupResponse> {
    const user = await users.findUserById(this.db, userId);
    if (!user) throw errors.sessionEnded();
    if (user.mfaEnrolledAt) throw errors.mfaAlreadyEnrolled();
    const secret = new Secret({ size: 20 }).base32;
    await repo.setMfaSecret(this.db, userId, this.box.seal(secret), this.clock.now());
    return { secret, otpauthUrl: this.totp(secret, user.email).toString() };
  }

  /**
   * The first code from the app proves it was set up right: enrols, and answers the recovery
   * codes, which are shown this once. A wrong code is a field error (400), not a 401: the staff
   * member is signed in, and a 401 tells clients to refresh their token.
   *
   * Enrolment ends every session that never passed the factor (issue 48, decision 0080): their
   * refresh families are revoked and the epoch raised, so their ID tokens are refused at once on
   * every process (`ended`, for this process's cutoffs after the commit). The enrolling session
   * (`sessionId`, the caller's `sid`) has just proved a code: its family is marked as having
   * passed it and stays; its next refresh gives a token of the new epoch.
   */
  async confirm(
    userId: string,
    code: string,
    sessionId: string | undefined,
  ): Promise<MfaConfirmResponse & { ended: SessionsEnded }> {
    const now = this.clock.now();
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const ended = await this.db.transaction(async (tx) => {
      const user = await repo.lockStaff(tx, userId);
      if (!user) throw errors.sessionEnded();
      if (user.mfaEnrolledAt) throw errors.mfaAlreadyEnrolled();
      const secret = user.mfaSecret ? this.box.open(user.mfaSecret) : null;
      if (!secret) throw errors.badRequest('Start the set-up of the second step first.');
      const step = this.acceptedStep(secret, user.email, code, now);
      if (step === null)
        throw errors.invalidField('body.code', 'That code is not right. Enter the newest code from your app.');
      await repo.markMfaEnrolled(tx, userId, step, now);
      await repo.replaceRecoveryCodes(
        tx,
        userId,
        recoveryCodes.map((c) => sha256(normaliseRecovery(c))),
        now,
      );
      const sessionKept = sessionId ? await markFamilyTwoFactor(tx, userId, sessionId) : false;
      const ended = await endPasswordOnlySessions(tx, userId, now);
      await insertAuditEntry(tx, {
        at: now,
        actor: { kind: 'staff', id: userId, email: user.email },
        action: 'staff.mfa_enrolled',
        bookingId: null,
        orderId: null,
        reason: null,
        before: { staffId: userId, email: user.email, mfaEnrolled: false },
        after: {
          staffId: userId,
          email: user.email,
          mfaEnrolled: true,
          passwordOnlySessionsEnded: true,
          enrollingSessionKept: sessionKept,
        },
      });
      return ended;
    });
    return { recoveryCodes, ended };
  }

  /** The time step `code` belongs to, or null when it is no current code of this secret. */
  private acceptedStep(secret: string, label: string, code: string, now: Date): number | null {
    const totp = this.totp(secret, label);
    const timestamp = now.getTime();
    const delta = totp.validate({ token: code, timestamp, window: TOTP_WINDOW });
    return delta === null ? null : totp.counter({ timestamp }) + delta;
  }

  /** After a right password: the single-use token for POST /auth/mfa. */
  async challenge(userId: string): Promise<string> {
    const now = this.clock.now();
    const token = randomToken();
    await repo.insertMfaChallenge(this.db, {
      userId,
      tokenHash: sha256(token),
      expiresAt: new Date(now.getTime() + MFA_TOKEN_TTL_MS),
      createdAt: now,
    });
    return token;
  }

  /**
   * The second step: the user's id when `code` is a TOTP code not used before or an unused
   * recovery code. The token is spent only by a right code (a typo does not send the staff member
   * back to the password; the rate limits bound the guesses). A token that is unknown, used or
   * expired → 401 UNAUTHENTICATED (sign in again); a wrong code → 401 INVALID_MFA_CODE. The
   * account's wrong codes are counted whatever the mfaToken (mfa-lockout.ts): while it is locked,
   * every code, right or not, → 429 RATE_LIMITED with `Retry-After`. The count commits with the
   * answer, so the error is thrown after the transaction.
   */
  async verify(mfaToken: string, code: string): Promise<string> {
    const now = this.clock.now();
    const outcome = await this.db.transaction(async (tx) => {
      const challenge = await repo.lockLiveChallenge(tx, sha256(mfaToken), now);
      if (!challenge) throw errors.sessionEnded();
      const user = await repo.lockStaff(tx, challenge.userId);
      if (!user || !user.active || !user.mfaEnrolledAt) throw errors.sessionEnded();
      const locked = lockedUntil(user, now);
      if (locked) return { kind: 'locked' as const, until: locked };
      const trimmed = code.trim();
      let ok: boolean;
      if (/^\d{6}$/.test(trimmed)) {
        const secret = user.mfaSecret ? this.box.open(user.mfaSecret) : null;
        const step = secret ? this.acceptedStep(secret, user.email, trimmed, now) : null;
        ok = step !== null && (await repo.claimMfaStep(tx, user.id, step));
      } else {
        ok = await repo.consumeRecoveryCode(tx, user.id, sha256(normaliseRecovery(trimmed)), now);
      }
      if (!ok) {
        const lockedNow = await countWrongCode(tx, user, now, this.issuer);
        return lockedNow ? { kind: 'locked' as const, until: lockedNow } : { kind: 'wrong' as const };
      }
      await clearWrongCodes(tx, user);
      await repo.markChallengeUsed(tx, challenge.id, now);
      return { kind: 'ok' as const, userId: user.id };
    });
    if (outcome.kind === 'locked') throw mfaLockedError(outcome.until, now);
    if (outcome.kind === 'wrong') throw errors.invalidMfaCode();
    return outcome.userId;
  }
}
