import { passwordProblem } from '@kringle/contracts/accounts';
import type { StaffAccount, StaffMe } from '@kringle/contracts/staff-accounts';
import { MFA_REQUIRED_ROLES, type StaffRole } from '@kringle/contracts/staff-roles';
import type { Db, DbOrTx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { errors, notFound } from '../../lib/errors';
import { hashPassword } from '../accounts/passwords';
import { endAllSessions, endPasswordOnlySessions, type SessionsEnded } from '../accounts/session-cutoffs.repository';
import { randomToken, sha256 } from '../accounts/secure-tokens';
import * as users from '../accounts/users.repository';
import { insertAuditEntry, SYSTEM, type Actor } from '../audit-trail/audit-entries.repository';
import { enqueueMail } from '../mail/outbox.repository';
import type { StaffState } from './staff-state.repository';
import * as repo from './staff-accounts.repository';
import { auditAccountChanges, auditInvitationAccepted, auditInvited } from './staff-audit';
import { staffInviteMail } from './staff-invite.email';

/** An invitation link works for a week: long enough for a seasonal hire to get to it. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface StaffAccountsSettings {
  brandName: string;
  /** Where the staff app lives: the link is `${publicUrl}/staff/invite?code=`. */
  publicUrl: string;
  /** Called after a change to an account, so this process's access cache forgets it at once. */
  forget: (userId: string) => void;
  /** Told, after the commit, that a deactivation or a reset ended every session (decision 0063). */
  sessionsEnded?: (ended: SessionsEnded) => void;
}

export function toStaffAccount(row: users.UserRow, invitationPending: boolean): StaffAccount {
  return {
    id: row.id,
    email: row.email,
    role: row.staffRole ?? 'set',
    locationIds: row.locationIds,
    mfaEnrolled: row.mfaEnrolledAt !== null,
    active: row.active,
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
    invitationPending,
  };
}

/** Managers' work on staff accounts (decision 0050): invite, list, change, deactivate. */
export class StaffAccountsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: StaffAccountsSettings,
  ) {}

  me(state: StaffState): StaffMe {
    return {
      id: state.userId,
      email: state.email,
      role: state.role,
      locationIds: state.locationIds,
      mfaEnrolled: state.mfaEnrolled,
      mfaRequired: MFA_REQUIRED_ROLES.includes(state.role),
    };
  }

  async list(): Promise<StaffAccount[]> {
    return (await repo.listStaff(this.db)).map((row) => toStaffAccount(row, row.invitationPending));
  }

  /**
   * Makes the account (no usable password until the invitation is accepted) and queues the
   * invitation in the same transaction. Answers the link too, for the CLI to print.
   */
  async invite(
    input: { email: string; role: StaffRole; locationIds: string[] },
    actor: Actor = SYSTEM,
  ): Promise<{ account: StaffAccount; link: string }> {
    await this.checkLocations(this.db, input.locationIds);
    const now = this.clock.now();
    // A random password nobody knows: the account cannot be signed into before the invitation.
    const passwordHash = await hashPassword(randomToken());
    return this.db.transaction(async (tx) => {
      const row = await users.insertUser(tx, {
        email: input.email,
        passwordHash,
        isStaff: true,
        staffRole: input.role,
        locationIds: input.locationIds,
        emailVerifiedAt: now,
        createdAt: now,
        updatedAt: now,
      });
      if (!row) throw errors.emailInUse();
      const link = await this.newInvitation(tx, row.id, now);
      await enqueueMail(
        tx,
        staffInviteMail({ brandName: this.settings.brandName, to: row.email, role: input.role, link }),
      );
      await auditInvited(tx, now, actor, row);
      return { account: toStaffAccount(row, true), link };
    });
  }

  private async newInvitation(tx: DbOrTx, userId: string, now: Date): Promise<string> {
    const code = randomToken();
    await repo.insertInvitation(tx, {
      userId,
      codeHash: sha256(code),
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      createdAt: now,
    });
    const url = new URL('/staff/invite', this.settings.publicUrl);
    url.searchParams.set('code', code);
    return url.toString();
  }

  /**
   * Role, locations, active, and a reset of the second factor (a lost phone and lost recovery
   * codes: the member signs in with the password and enrols again). Deactivating or a reset ends
   * every session of the account in the same transaction (refresh tokens revoked, the session
   * epoch raised: every process refuses its ID tokens at once, decision 0063). A manager cannot
   * demote or deactivate themself (no brand left without one by a slip); another manager can.
   */
  async update(
    actorId: string,
    id: string,
    patch: { role?: StaffRole; locationIds?: string[]; active?: boolean; resetMfa?: true },
  ): Promise<StaffAccount> {
    if (
      id === actorId &&
      ((patch.role !== undefined && patch.role !== 'manager') || patch.active === false || patch.resetMfa)
    ) {
      throw errors.badRequest('You cannot demote, deactivate or reset your own account. Ask another manager.');
    }
    if (patch.locationIds) await this.checkLocations(this.db, patch.locationIds);
    const now = this.clock.now();
    const { row, ended } = await this.db.transaction(async (tx) => {
      const current = await repo.lockStaff(tx, id);
      if (!current) throw notFound('That staff account');
      if (patch.resetMfa) {
        await repo.resetMfa(tx, id, now);
        const subject = { staffId: id, email: current.email };
        await insertAuditEntry(tx, {
          at: now,
          actor: { kind: 'staff', id: actorId, email: null },
          action: 'staff.mfa_reset',
          bookingId: null,
          orderId: null,
          reason: null,
          before: { ...subject, mfaEnrolled: current.mfaEnrolledAt !== null },
          after: { ...subject, mfaEnrolled: false, sessionsEnded: true },
        });
      }
      const updated = await repo.updateStaff(
        tx,
        id,
        { staffRole: patch.role, locationIds: patch.locationIds, active: patch.active },
        now,
      );
      await auditAccountChanges(tx, now, { kind: 'staff', id: actorId, email: null }, current, updated);
      const endsSessions = patch.active === false || patch.resetMfa;
      // Issue 48: a role that needs the second factor ends the sessions that never passed it.
      const needsFactorNow =
        patch.role !== undefined &&
        MFA_REQUIRED_ROLES.includes(patch.role) &&
        !(current.staffRole && MFA_REQUIRED_ROLES.includes(current.staffRole));
      return {
        row: updated,
        ended: endsSessions
          ? await endAllSessions(tx, id, now)
          : needsFactorNow
            ? await endPasswordOnlySessions(tx, id, now)
            : null,
      };
    });
    this.settings.forget(id);
    if (ended) this.settings.sessionsEnded?.(ended);
    return toStaffAccount(row, await repo.isInvitationPending(this.db, id));
  }

  /**
   * POST /staff/sign-out-everywhere: every refresh family of the member revoked and the ID tokens
   * already issued refused at once on every process (the session epoch, decision 0063), so a phone
   * left on the set reads no more children's names.
   */
  async signOutEverywhere(userId: string): Promise<void> {
    const ended = await this.db.transaction((tx) => endAllSessions(tx, userId, this.clock.now()));
    this.settings.sessionsEnded?.(ended);
  }

  /** POST /staff/invitations/accept: sets the password; the link then never works again. */
  async acceptInvitation(code: string, password: string): Promise<void> {
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      const userId = await repo.consumeInvitation(tx, sha256(code), now);
      const row = userId ? await users.findUserById(tx, userId) : null;
      if (!row || !row.active) throw errors.invalidActionCode();
      // Thrown inside the transaction: a weak password leaves the link usable.
      const problem = passwordProblem(password, row.email);
      if (problem) throw errors.weakPassword(problem, 'body.password');
      await users.updatePasswordHash(tx, row.id, await hashPassword(password), now);
      await auditInvitationAccepted(tx, now, row);
    });
  }

  private async checkLocations(db: DbOrTx, ids: string[]): Promise<void> {
    const unknown = await repo.unknownLocations(db, ids);
    if (unknown.length)
      throw errors.validation([{ path: 'body.locationIds', message: `Unknown location ${unknown[0]}` }]);
  }
}
