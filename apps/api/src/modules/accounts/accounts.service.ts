import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  passwordProblem,
  type SessionResponse,
  type updateProfileRequestSchema,
  type User,
} from '@kringle/contracts/accounts';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import { errors } from '../../lib/errors';
import type { Clock } from '../../lib/clock';
import type { IdTokens } from './id-tokens';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords';
import * as refreshTokens from './refresh-tokens.repository';
import { randomToken, sha256 } from './secure-tokens';
import { openSuccessor, sealSuccessor } from './successor-seal';
import { tokenSubject, toUser } from './users.mapper';
import * as users from './users.repository';
import { auditProfileChange } from './profile-audit';
import { endAllSessions, type SessionsEnded } from './session-cutoffs.repository';

/** A refresh family lives 30 days from sign-in, however often it rotates (absolute expiry). */
export const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * Staff sessions are shorter (decision 0050): 12 hours from sign-in (a long day at the set), and
 * ended after 30 minutes without a refresh (the staff app refreshes whenever its 15-minute ID
 * token runs out while in use, so a device left alone is signed out within 15 to 30 minutes).
 */
export const STAFF_REFRESH_TTL_MS = 12 * 60 * 60 * 1000;
export const STAFF_REFRESH_IDLE_MS = 30 * 60 * 1000;

/** The first step of a staff sign-in with a second factor: no session yet (decision 0050). */
export interface MfaChallenge {
  mfaRequired: true;
  mfaToken: string;
}

/** The second factor, as sign-in needs it (MfaService). */
export interface SecondFactor {
  challenge(userId: string): Promise<string>;
  verify(mfaToken: string, code: string): Promise<string>;
}

export interface Session extends SessionResponse {
  /** The new opaque refresh token, for the httpOnly cookie only (never in a body or a log). */
  refreshToken: string;
  refreshExpiresAt: Date;
}

export interface RegisterInput {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  phone?: string;
}

export type ProfilePatch = users.UserProfilePatch;

/** Registration, sessions (sign-in, refresh rotation, sign-out) and the profile. */
export class AccountsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly idTokens: IdTokens,
    private readonly log: FastifyBaseLogger,
    /** REFRESH_REUSE_GRACE_SECONDS, in ms (0: a spent token is always theft). */
    private readonly reuseGraceMs: number,
    private readonly secondFactor: SecondFactor,
    /** Told, after the commit, that every session of an account ended: this process refuses its tokens at once. */
    private readonly sessionsEnded: (ended: SessionsEnded) => void = () => {},
  ) {}

  async register(input: RegisterInput): Promise<User> {
    const problem = passwordProblem(input.password, input.email);
    if (problem) throw errors.weakPassword(problem, 'body.password');
    // Cheap early answer; the unique index still decides when two registrations race.
    if (await users.findUserByEmail(this.db, input.email)) throw errors.emailInUse();
    const now = this.clock.now();
    const row = await users.insertUser(this.db, {
      email: input.email,
      passwordHash: await hashPassword(input.password),
      firstName: input.firstName,
      lastName: input.lastName,
      phone: input.phone ?? null,
      createdAt: now,
      updatedAt: now,
    });
    if (!row) throw errors.emailInUse();
    return toUser(row);
  }

  /**
   * Unknown e-mail and wrong password fail the same way, after the same amount of hashing; so does
   * a deactivated staff account. A staff account with a second factor gets a challenge instead of
   * a session (customers never do).
   */
  async signIn(email: string, password: string): Promise<Session | MfaChallenge> {
    const row = await users.findUserByEmail(this.db, email);
    const ok = row ? await verifyPassword(row.passwordHash, password) : await verifyAgainstDummy(password);
    if (!row || !ok || (row.isStaff && !row.active)) throw errors.invalidCredentials();
    if (row.isStaff && row.mfaEnrolledAt)
      return { mfaRequired: true, mfaToken: await this.secondFactor.challenge(row.id) };
    return this.startSession(row, refreshTokens.PASSWORD_AMR);
  }

  /** POST /auth/mfa: the second step; the usual session once the code is right. */
  async signInSecondStep(mfaToken: string, code: string): Promise<Session> {
    const userId = await this.secondFactor.verify(mfaToken, code);
    const row = await users.findUserById(this.db, userId);
    if (!row) throw errors.sessionEnded();
    return this.startSession(row, refreshTokens.TWO_FACTOR_AMR);
  }

  /**
   * Changes the password after checking the current one, revokes every refresh token of the user
   * (other devices must sign in again, API.md's reset does the same) and starts a fresh session
   * for this device, so the family stays signed in here.
   */
  async changePassword(userId: string, currentPassword: string, newPassword: string): Promise<Session> {
    const row = await users.findUserById(this.db, userId);
    if (!row) throw errors.sessionEnded();
    // 400, not 401: a 401 means "refresh the ID token and retry" to every client.
    if (!(await verifyPassword(row.passwordHash, currentPassword))) {
      throw errors.wrongPassword();
    }
    const problem = passwordProblem(newPassword, row.email);
    if (problem) throw errors.weakPassword(problem, 'body.newPassword');
    if (newPassword === currentPassword)
      throw errors.weakPassword('Choose a password different from the current one', 'body.newPassword');
    const now = this.clock.now();
    const passwordHash = await hashPassword(newPassword);
    const ended = await this.db.transaction(async (tx) => {
      await users.updatePasswordHash(tx, row.id, passwordHash, now);
      return endAllSessions(tx, row.id, now);
    });
    this.sessionsEnded(ended);
    // The new epoch, so this device's fresh token is not refused with the old ones.
    return this.startSession({ ...row, sessionEpoch: ended.epoch }, refreshTokens.PASSWORD_AMR);
  }

  /** A new refresh family, signed into by `amr` (decision 0080), and its first ID token. */
  private async startSession(row: users.UserRow, amr: string[]): Promise<Session> {
    const now = this.clock.now();
    const refreshToken = randomToken();
    const refreshExpiresAt = new Date(now.getTime() + (row.isStaff ? STAFF_REFRESH_TTL_MS : REFRESH_TTL_MS));
    if (row.isStaff) await users.recordSignIn(this.db, row.id, now);
    const familyId = randomUUID();
    await refreshTokens.insertRefreshToken(this.db, {
      userId: row.id,
      familyId,
      tokenHash: sha256(refreshToken),
      expiresAt: refreshExpiresAt,
      createdAt: now,
      amr,
    });
    return { ...(await this.idTokenFor(row, { amr, familyId })), refreshToken, refreshExpiresAt };
  }

  /**
   * Rotates the refresh token: the presented one is spent and a new one of the same family (and
   * the same absolute expiry) is issued. The token just rotated away, sent again within the reuse
   * grace (several tabs at once, or an answer lost on the way), gets the family's current token
   * instead (decision 0005). Any other spent token means it was copied, so the whole family is
   * revoked and both holders must sign in again.
   */
  async refresh(presented: string | undefined): Promise<Session> {
    if (!presented) throw errors.sessionEnded();
    const now = this.clock.now();
    const outcome = await this.db.transaction(async (tx) => {
      // The row lock serialises every refresh of this token, across API processes: the first
      // rotates, the others wait and then see it rotated, with its successor sealed.
      const token = await refreshTokens.findRefreshTokenForUpdate(tx, sha256(presented));
      if (!token || token.revokedAt) return null;
      if (token.rotatedAt) return this.catchUp(tx, token, presented, now);
      if (token.expiresAt <= now) return null;
      const user = await users.findUserById(tx, token.userId);
      if (!user || !staffSessionLive(user, token, now)) return null;
      const refreshToken = randomToken();
      const amr = token.amr;
      await refreshTokens.markRotated(tx, token.id, now, sealSuccessor(presented, token.familyId, refreshToken));
      await refreshTokens.insertRefreshToken(tx, {
        userId: token.userId,
        familyId: token.familyId,
        tokenHash: sha256(refreshToken),
        expiresAt: token.expiresAt,
        createdAt: now,
        amr,
      });
      return { user, refreshToken, refreshExpiresAt: token.expiresAt, family: { amr, familyId: token.familyId } };
    });
    // Outside the transaction: the revocation of a replayed family must commit before we answer 401.
    if (!outcome) throw errors.sessionEnded();
    return {
      ...(await this.idTokenFor(outcome.user, outcome.family)),
      refreshToken: outcome.refreshToken,
      refreshExpiresAt: outcome.refreshExpiresAt,
    };
  }

  /**
   * A rotated token sent again: the family's current token if this one is its immediate
   * predecessor and was rotated within the grace; otherwise theft, and the family is revoked.
   * Reads the successor without a lock (one lock per refresh, so no lock-order deadlocks): a
   * rotation of it still in flight only means the caller catches up again, within the grace.
   */
  private async catchUp(tx: DbOrTx, token: refreshTokens.RefreshTokenRow, presented: string, now: Date) {
    const theft = async (reason: string) => {
      await refreshTokens.revokeFamily(tx, token.familyId, now);
      this.log.warn(
        { event: 'auth.refresh_token_reuse', reason, userId: token.userId, familyId: token.familyId },
        'refresh token reuse detected: family revoked',
      );
      return null;
    };
    if (this.reuseGraceMs === 0) return theft('grace_off');
    if (now.getTime() - token.rotatedAt!.getTime() > this.reuseGraceMs) return theft('after_grace');
    const current = token.successorSealed ? openSuccessor(presented, token.familyId, token.successorSealed) : null;
    if (!current) return theft('no_successor');
    const successor = await refreshTokens.findRefreshToken(tx, sha256(current));
    if (!successor || successor.revokedAt || successor.expiresAt <= now) return null;
    if (successor.rotatedAt) return theft('not_the_predecessor');
    const user = await users.findUserById(tx, token.userId);
    if (!user || !staffSessionLive(user, successor, now)) return null;
    return {
      user,
      refreshToken: current,
      refreshExpiresAt: successor.expiresAt,
      family: { amr: successor.amr, familyId: successor.familyId },
    };
  }

  /** Revokes the presented token's whole family; unknown or missing tokens are a no-op. */
  async signOut(presented: string | undefined): Promise<void> {
    if (!presented) return;
    const token = await refreshTokens.findRefreshToken(this.db, sha256(presented));
    if (token) await refreshTokens.revokeFamily(this.db, token.familyId, this.clock.now());
  }

  /**
   * Every refresh family of the account: every device must sign in again, ID tokens already
   * issued are refused at once (decision 0063), live streams end (issue 36).
   */
  async signOutEverywhere(userId: string): Promise<void> {
    const ended = await this.db.transaction((tx) => endAllSessions(tx, userId, this.clock.now()));
    this.sessionsEnded(ended);
  }

  async getUser(userId: string): Promise<User> {
    const row = await users.findUserById(this.db, userId);
    // A valid token for a user that no longer exists is no session at all.
    if (!row) throw errors.sessionEnded();
    return toUser(row);
  }

  async updateProfile(userId: string, request: z.output<typeof updateProfileRequestSchema>): Promise<User> {
    const { sms, ...rest } = request;
    const patch: ProfilePatch = { ...rest, ...(sms ? { smsReminders: sms.reminders } : {}) };
    if (patch.preferredLocationId && !(await users.locationExists(this.db, patch.preferredLocationId))) {
      throw errors.validation([{ path: 'body.preferredLocationId', message: 'Unknown location' }]);
    }
    const now = this.clock.now();
    const row = await this.db.transaction(async (tx) => {
      const before = await users.lockUser(tx, userId);
      if (!before) throw errors.sessionEnded();
      const after = (await users.updateUserProfile(tx, userId, patch, now))!;
      await auditProfileChange(tx, now, before, after);
      return after;
    });
    return toUser(row);
  }

  private async idTokenFor(row: users.UserRow, family: { amr: string[]; familyId: string }): Promise<SessionResponse> {
    const { idToken, expiresAt } = await this.idTokens.issue({
      ...tokenSubject(row),
      amr: family.amr,
      sessionId: family.familyId,
    });
    return { idToken, expiresAt: expiresAt.toISOString(), user: toUser(row) };
  }
}

/**
 * A customer's session is live until its expiry; a staff one also ends when idle or deactivated,
 * and, once the account has a second factor, when it never passed it (a session signed into with
 * the password before enrolment, decision 0080).
 */
function staffSessionLive(user: users.UserRow, token: refreshTokens.RefreshTokenRow, now: Date): boolean {
  if (!user.isStaff) return true;
  if (user.mfaEnrolledAt && !token.amr.includes(refreshTokens.SECOND_FACTOR_AMR)) return false;
  return user.active && now.getTime() - token.createdAt.getTime() <= STAFF_REFRESH_IDLE_MS;
}
