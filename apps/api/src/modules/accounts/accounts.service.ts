import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { passwordProblem, type SessionResponse, type User } from '@kringle/contracts/accounts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Clock } from '../../lib/clock';
import type { IdTokens } from './id-tokens';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords';
import * as refreshTokens from './refresh-tokens.repository';
import { openWith, randomToken, sealWith, sha256 } from './secure-tokens';
import { tokenSubject, toUser } from './users.mapper';
import * as users from './users.repository';

/** A refresh family lives 30 days from sign-in, however often it rotates (absolute expiry). */
export const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000;

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

export const invalidCredentials = () =>
  new AppError('INVALID_CREDENTIALS', 401, 'The email address or password is incorrect.');
export const unauthenticated = () =>
  new AppError('UNAUTHENTICATED', 401, 'Your session has ended. Please sign in again.');
export const weakPassword = (message: string, path: string) =>
  new AppError('WEAK_PASSWORD', 400, message, [{ path, message }]);

/** Registration, sessions (sign-in, refresh rotation, sign-out) and the profile. */
export class AccountsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly idTokens: IdTokens,
    private readonly log: FastifyBaseLogger,
    /** REFRESH_REUSE_GRACE_SECONDS in ms: 0 treats every second use as theft. */
    private readonly reuseGraceMs = 0,
  ) {}

  async register(input: RegisterInput): Promise<User> {
    const problem = passwordProblem(input.password, input.email);
    if (problem) throw weakPassword(problem, 'body.password');
    const emailInUse = () => new AppError('EMAIL_IN_USE', 409, 'An account with this email address already exists.');
    // Cheap early answer; the unique index still decides when two registrations race.
    if (await users.findUserByEmail(this.db, input.email)) throw emailInUse();
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
    if (!row) throw emailInUse();
    return toUser(row);
  }

  /** Unknown e-mail and wrong password fail the same way, after the same amount of hashing. */
  async signIn(email: string, password: string): Promise<Session> {
    const row = await users.findUserByEmail(this.db, email);
    const ok = row ? await verifyPassword(row.passwordHash, password) : await verifyAgainstDummy(password);
    if (!row || !ok) throw invalidCredentials();
    return this.startSession(row);
  }

  /**
   * Changes the password after checking the current one, revokes every refresh token of the user
   * (other devices must sign in again, API.md's reset does the same) and starts a fresh session
   * for this device, so the family stays signed in here.
   */
  async changePassword(userId: string, currentPassword: string, newPassword: string): Promise<Session> {
    const row = await users.findUserById(this.db, userId);
    if (!row) throw unauthenticated();
    // 400, not 401: a 401 means "refresh the ID token and retry" to every client.
    const wrong = 'The current password is not right.';
    if (!(await verifyPassword(row.passwordHash, currentPassword))) {
      throw new AppError('WRONG_PASSWORD', 400, wrong, [{ path: 'body.currentPassword', message: wrong }]);
    }
    const problem = passwordProblem(newPassword, row.email);
    if (problem) throw weakPassword(problem, 'body.newPassword');
    if (newPassword === currentPassword) throw weakPassword('Choose a password different from the current one', 'body.newPassword');
    const now = this.clock.now();
    const passwordHash = await hashPassword(newPassword);
    await this.db.transaction(async (tx) => {
      await users.updatePasswordHash(tx, row.id, passwordHash, now);
      await refreshTokens.revokeAllForUser(tx, row.id, now);
    });
    return this.startSession(row);
  }

  private async startSession(row: users.UserRow): Promise<Session> {
    const now = this.clock.now();
    const refreshToken = randomToken();
    const refreshExpiresAt = new Date(now.getTime() + REFRESH_TTL_MS);
    await refreshTokens.insertRefreshToken(this.db, {
      userId: row.id,
      familyId: randomUUID(),
      tokenHash: sha256(refreshToken),
      expiresAt: refreshExpiresAt,
      createdAt: now,
    });
    return { ...(await this.idTokenFor(row)), refreshToken, refreshExpiresAt };
  }

  /**
   * Rotates the refresh token: the presented one is spent and a new one of the same family (and
   * the same absolute expiry) is issued. The spent token's holder may present it again within the
   * reuse grace, while its successor is still the family's current token: several tabs refreshing
   * at once, or an answer lost on the way. They get a new ID token and the current token, so every
   * tab ends on one cookie. Any other second use means the token was copied: the whole family is
   * revoked and both holders must sign in again. The presented row (and, in the grace, its
   * successor) is locked, so concurrent refreshes on any number of processes are serialised.
   */
  async refresh(presented: string | undefined): Promise<Session> {
    if (!presented) throw unauthenticated();
    const now = this.clock.now();
    const outcome = await this.db.transaction(async (tx) => {
      const token = await refreshTokens.findRefreshTokenForUpdate(tx, sha256(presented));
      if (!token || token.revokedAt) return null;
      if (token.rotatedAt) {
        const current = await this.currentSuccessor(tx, token, presented, now);
        if (current) return current;
        await refreshTokens.revokeFamily(tx, token.familyId, now);
        this.log.warn(
          { event: 'security.refresh_token_reuse', userId: token.userId, familyId: token.familyId, rotatedAt: token.rotatedAt },
          'refresh token replayed: family revoked',
        );
        return null;
      }
      if (token.expiresAt <= now) return null;
      const user = await users.findUserById(tx, token.userId);
      if (!user) return null;
      const refreshToken = randomToken();
      const successorId = await refreshTokens.insertRefreshToken(tx, {
        userId: token.userId,
        familyId: token.familyId,
        tokenHash: sha256(refreshToken),
        expiresAt: token.expiresAt,
        createdAt: now,
      });
      await refreshTokens.markRotated(tx, token.id, { now, replacedBy: successorId, successorSealed: sealWith(presented, refreshToken) });
      return { user, refreshToken, refreshExpiresAt: token.expiresAt };
    });
    // Outside the transaction: the revocation of a replayed family must commit before we answer 401.
    if (!outcome) throw unauthenticated();
    return { ...(await this.idTokenFor(outcome.user)), refreshToken: outcome.refreshToken, refreshExpiresAt: outcome.refreshExpiresAt };
  }

  /** The family's current token for a just-rotated one within the grace; null means theft. */
  private async currentSuccessor(tx: DbOrTx, token: refreshTokens.RefreshTokenRow, presented: string, now: Date) {
    if (this.reuseGraceMs <= 0 || !token.rotatedAt || !token.replacedBy || !token.successorSealed) return null;
    if (now.getTime() - token.rotatedAt.getTime() > this.reuseGraceMs || token.expiresAt <= now) return null;
    // Locked, so it cannot rotate between this check and the answer: a grandparent is never served.
    const successor = await refreshTokens.findRefreshTokenByIdForUpdate(tx, token.replacedBy);
    if (!successor || successor.rotatedAt || successor.revokedAt) return null;
    const refreshToken = openWith(presented, token.successorSealed);
    if (!refreshToken || sha256(refreshToken) !== successor.tokenHash) return null;
    const user = await users.findUserById(tx, token.userId);
    return user ? { user, refreshToken, refreshExpiresAt: successor.expiresAt } : null;
  }

  /** Revokes the presented token's whole family; unknown or missing tokens are a no-op. */
  async signOut(presented: string | undefined): Promise<void> {
    if (!presented) return;
    const token = await refreshTokens.findRefreshToken(this.db, sha256(presented));
    if (token) await refreshTokens.revokeFamily(this.db, token.familyId, this.clock.now());
  }

  async getUser(userId: string): Promise<User> {
    const row = await users.findUserById(this.db, userId);
    // A valid token for a user that no longer exists is no session at all.
    if (!row) throw unauthenticated();
    return toUser(row);
  }

  async updateProfile(userId: string, patch: ProfilePatch): Promise<User> {
    if (patch.preferredLocationId && !(await users.locationExists(this.db, patch.preferredLocationId))) {
      throw new AppError('VALIDATION_FAILED', 400, 'Some of the details sent are not valid.', [
        { path: 'body.preferredLocationId', message: 'Unknown location' },
      ]);
    }
    const row = await users.updateUserProfile(this.db, userId, patch, this.clock.now());
    if (!row) throw unauthenticated();
    return toUser(row);
  }

  private async idTokenFor(row: users.UserRow): Promise<SessionResponse> {
    const { idToken, expiresAt } = await this.idTokens.issue(tokenSubject(row));
    return { idToken, expiresAt: expiresAt.toISOString(), user: toUser(row) };
  }
}
