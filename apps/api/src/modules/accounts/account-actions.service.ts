import { maskEmail, passwordProblem, type ActionCheckResponse, type ActionMode } from '@kringle/contracts/accounts';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client';
import type { AppError } from '../../lib/app-error';
import { errors } from '../../lib/errors';
import type { Clock } from '../../lib/clock';
import { enqueueMail } from '../mail/outbox.repository';
import { resetPasswordMail, verifyEmailMail } from './accounts.emails';
import * as actionCodes from './action-codes.repository';
import { allowedOrigin, createActionLink } from './action-links';
import { hashPassword } from './passwords';
import { endAllSessions, type SessionsEnded } from './session-cutoffs.repository';
import * as resetRequests from './reset-requests.repository';
import { sha256 } from './secure-tokens';
import * as users from './users.repository';

/** A reset request that keeps failing (database trouble) is tried this often, then dropped and logged. */
export const RESET_RETRY = { attempts: 5, firstDelayMs: 10_000 };
/** At most one verification e-mail per user per minute. */
export const VERIFICATION_INTERVAL_MS = 60 * 1000;

export const RESET_REQUESTED_MESSAGE =
  'If an account exists for that email address, we have sent it a link to reset the password. Check your spam folder ' +
  'too.';

export interface AccountActionsSettings {
  brandName: string;
  /** Allowed origins for `redirectUrl` (APP_ORIGINS). */
  appOrigins: readonly string[];
  /** Where a failed background reset is reported (it has no request left to fail). */
  onBackgroundError?: (err: unknown) => void;
  /** Told, after the commit, that a reset ended every session: this process refuses the old tokens at once. */
  sessionsEnded?: (ended: SessionsEnded) => void;
}

/** E-mail action links: verification and password reset, from request to use. */
export class AccountActionsService {
  /** This process's reset work, one pass after another, after the answer has gone (see sendPasswordReset). */
  private resetQueue: Promise<void> = Promise.resolve();
  private draining = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: AccountActionsSettings,
  ) {}

  async sendVerificationEmail(userId: string, redirectUrl: string): Promise<string> {
    const origin = this.allowedOrigin(redirectUrl);
    const user = await users.findUserById(this.db, userId);
    if (!user) throw errors.sessionEnded();
    if (user.emailVerifiedAt) throw errors.alreadyVerified();
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      const claimed = await users.claimVerificationSlot(
        tx,
        user.id,
        now,
        new Date(now.getTime() - VERIFICATION_INTERVAL_MS),
      );
      if (!claimed) throw await this.tooSoon(tx, user.id, now);
      const link = await createActionLink(tx, user.id, 'verifyEmail', origin, now);
      await enqueueMail(
        tx,
        verifyEmailMail({ brandName: this.settings.brandName, to: user.email, firstName: user.firstName, link }),
      );
    });
    return 'Verification email sent successfully';
  }

  /**
   * Answers the same whether or not the account exists, and as fast: the request is written
   * (one INSERT for everyone) and answered; the lookup and the mail happen after the answer, in
   * this process at once, or by the reset-requests job if this process dies first. A new link
   * voids the older ones.
   */
  async sendPasswordReset(email: string, redirectUrl: string): Promise<string> {
    const origin = this.allowedOrigin(redirectUrl);
    await resetRequests.insertResetRequest(this.db, { email, origin, requestedAt: this.clock.now() });
    const work = this.resetQueue
      .then(() => this.processResetRequests())
      .then(() => undefined)
      .catch((err: unknown) => this.settings.onBackgroundError?.(err));
    this.resetQueue = work;
    // While the server shuts down, the answer waits for the work: the database closes right after.
    if (this.draining) await work;
    return RESET_REQUESTED_MESSAGE;
  }

  /** For shutdown: waits for the reset work under way, and makes later requests finish before they answer. */
  async drain(): Promise<void> {
    this.draining = true;
    await this.resetQueue;
  }

  /**
   * Works off every due reset request, oldest first, one transaction each: the request row is
   * deleted in the transaction that writes the link and the mail, so it is done once or not at
   * all. A failure backs off and is tried again (RESET_RETRY); returns how many were handled.
   */
  async processResetRequests(): Promise<number> {
    let handled = 0;
    for (;;) {
      const now = this.clock.now();
      let claimed: resetRequests.ResetRequestRow | null = null;
      try {
        const found = await this.db.transaction(async (tx) => {
          claimed = await resetRequests.claimDueResetRequest(tx, now);
          if (!claimed) return false;
          await this.mailPasswordReset(tx, claimed.email, claimed.origin, now);
          await resetRequests.deleteResetRequest(tx, claimed.id);
          return true;
        });
        if (!found) return handled;
        handled++;
      } catch (err) {
        const failed = claimed as resetRequests.ResetRequestRow | null;
        if (!failed) throw err;
        await this.resetRequestFailed(failed, err, now);
      }
    }
  }

  private async resetRequestFailed(request: resetRequests.ResetRequestRow, err: unknown, now: Date): Promise<void> {
    this.settings.onBackgroundError?.(err);
    if (request.attempts + 1 >= RESET_RETRY.attempts) {
      await resetRequests.deleteResetRequest(this.db, request.id);
      return;
    }
    const retryAt = new Date(now.getTime() + RESET_RETRY.firstDelayMs * 2 ** request.attempts);
    await resetRequests.markResetRequestFailed(
      this.db,
      request.id,
      err instanceof Error ? err.message : String(err),
      retryAt,
    );
  }

  private async mailPasswordReset(tx: Tx, email: string, origin: string, now: Date): Promise<void> {
    // Requests for one account in order, even across processes: the newest link is the live one.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`password-reset:${email}`}))`);
    const user = await users.findUserByEmail(tx, email);
    if (!user) return;
    await actionCodes.voidActionCodes(tx, user.id, 'resetPassword', now);
    const link = await createActionLink(tx, user.id, 'resetPassword', origin, now);
    await enqueueMail(
      tx,
      resetPasswordMail({ brandName: this.settings.brandName, to: user.email, firstName: user.firstName, link }),
    );
  }

  async check(oobCode: string): Promise<ActionCheckResponse> {
    const code = await this.usableCode(oobCode);
    const user = await users.findUserById(this.db, code.userId);
    if (!user) throw errors.invalidActionCode();
    return { mode: code.mode, email: maskEmail(user.email) };
  }

  async verifyEmail(oobCode: string): Promise<string> {
    const code = await this.usableCode(oobCode, 'verifyEmail');
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      if (!(await actionCodes.consumeActionCode(tx, code.id, now))) throw errors.invalidActionCode();
      await users.markEmailVerified(tx, code.userId, now);
    });
    return 'Your email address has been verified.';
  }

  /** Sets the new password and signs the account out everywhere (every refresh token revoked). */
  async resetPassword(oobCode: string, newPassword: string): Promise<string> {
    const code = await this.usableCode(oobCode, 'resetPassword');
    const user = await users.findUserById(this.db, code.userId);
    if (!user) throw errors.invalidActionCode();
    // Checked before the code is spent, so the family can try another password with the same link.
    const problem = passwordProblem(newPassword, user.email);
    if (problem) throw errors.weakPassword(problem, 'body.newPassword');
    const passwordHash = await hashPassword(newPassword);
    const now = this.clock.now();
    const ended = await this.db.transaction(async (tx) => {
      if (!(await actionCodes.consumeActionCode(tx, code.id, now))) throw errors.invalidActionCode();
      await users.updatePasswordHash(tx, user.id, passwordHash, now);
      // The link reached the mailbox, which proves the address as well as a verify link would.
      await users.markEmailVerified(tx, user.id, now);
      return endAllSessions(tx, user.id, now);
    });
    this.settings.sessionsEnded?.(ended);
    return 'Your password has been changed. Please sign in with your new password.';
  }

  /** A known, unused code (of `mode` when given) that has not expired. */
  private async usableCode(oobCode: string, mode?: ActionMode): Promise<actionCodes.ActionCodeRow> {
    const code = await actionCodes.findActionCode(this.db, sha256(oobCode));
    if (!code || code.usedAt || (mode && code.mode !== mode)) throw errors.invalidActionCode();
    if (code.expiresAt <= this.clock.now()) throw errors.expiredActionCode();
    return code;
  }

  private allowedOrigin(redirectUrl: string): string {
    return allowedOrigin(redirectUrl, this.settings.appOrigins);
  }

  private async tooSoon(db: DbOrTx, userId: string, now: Date): Promise<AppError> {
    const sentAt = (await users.findUserById(db, userId))?.verificationSentAt ?? now;
    const seconds = Math.max(1, Math.ceil((sentAt.getTime() + VERIFICATION_INTERVAL_MS - now.getTime()) / 1000));
    return errors.rateLimited(
      `We have just sent you a verification email. You can ask for another one in ${seconds} seconds.`,
      seconds,
    );
  }
}
