import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { StaffRole } from '@kringle/contracts/staff-roles';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored trimmed and lower-cased (contracts' normaliseEmail). */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    /** E.164 when set by PATCH /user/me (an Australian mobile); older rows may hold what was typed. */
    phone: text('phone'),
    /** The day-before reminder by SMS (issue 54): off unless the family turns it on. */
    smsReminders: boolean('sms_reminders').notNull().default(false),
    preferredLocationId: uuid('preferred_location_id'),
    /** Staff accounts get `dashboard_user` in their token and are refused by the customer app. */
    isStaff: boolean('is_staff').notNull().default(false),
    /** Set exactly for staff accounts (a check constraint says so); decision 0050. */
    staffRole: text('staff_role').$type<StaffRole>(),
    /** The locations a staff account may touch; empty means all of them. */
    locationIds: uuid('location_ids')
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** A deactivated account is refused at once (its refresh tokens are revoked too). */
    active: boolean('active').notNull().default(true),
    /** The TOTP secret, encrypted (mfa-secret-box.ts); set at setup, trusted once enrolledAt is set. */
    mfaSecret: text('mfa_secret'),
    mfaEnrolledAt: timestamp('mfa_enrolled_at', { withTimezone: true }),
    /** The last TOTP time step accepted, so a code is usable once. */
    mfaLastStep: bigint('mfa_last_step', { mode: 'number' }),
    /** Consecutive wrong second-factor codes, across mfaTokens and addresses (issue 48, decision 0080). */
    mfaFailedCount: integer('mfa_failed_count').notNull().default(0),
    /** Until then the account accepts no second-factor code at all, recovery codes included. */
    mfaLockedUntil: timestamp('mfa_locked_until', { withTimezone: true }),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    verificationSentAt: timestamp('verification_sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when the account is deleted (DELETE /user): the row stays for ids, nothing in it names the person. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * Raised each time every session of the account ends (deletion, password change or reset, sign
     * out everywhere, a staff deactivation): an ID token of an older epoch is refused (decision 0063).
     */
    sessionEpoch: integer('session_epoch').notNull().default(0),
    /** When the epoch was last raised: processes mirror the epochs raised within a token's lifetime. */
    sessionsEndedAt: timestamp('sessions_ended_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    index('users_sessions_ended_idx')
      .on(t.sessionsEndedAt)
      .where(sql`sessions_ended_at IS NOT NULL`),
    index('users_unverified_idx')
      .on(t.createdAt)
      .where(sql`email_verified_at IS NULL AND is_staff = false AND deleted_at IS NULL`),
  ],
);

/** Opaque refresh tokens, stored hashed; one family per sign-in, rotated on every use. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** Absolute expiry of the whole family (30 days from sign-in). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /**
     * The token that replaced this one, sealed with a key derived from this token (decision 0005):
     * only this token's holder can open it, within the reuse grace, to catch up with its family.
     */
    successorSealed: text('successor_sealed'),
    /**
     * How the family was signed into (RFC 8176): 'pwd', plus 'otp' once a second-factor code was proved (decision
     * 0080).
     */
    amr: text('amr')
      .array()
      .notNull()
      .default(sql`'{pwd}'`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash), index('refresh_tokens_family_idx').on(t.familyId)],
);

/** E-mail action codes (verify e-mail, reset password): stored hashed, single use. */
export const actionCodes = pgTable(
  'action_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mode: text('mode', { enum: ['verifyEmail', 'resetPassword'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('action_codes_hash_key').on(t.codeHash),
    index('action_codes_user_mode_idx')
      .on(t.userId, t.mode)
      .where(sql`used_at is null`),
  ],
);

/**
 * Password-reset requests, written before the answer (the same for known and unknown e-mails)
 * and worked off after it: the lookup, the link and the mail (decision 0009). A row lives until
 * its work commits, so a crash in between delays the mail instead of losing it.
 */
export const passwordResetRequests = pgTable(
  'password_reset_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** As typed (validated, normalised); the row is deleted once handled. */
    email: text('email').notNull(),
    /** The allowed app origin the link points at (from `redirectUrl`). */
    origin: text('origin').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
  },
  (t) => [index('password_reset_requests_due_idx').on(t.nextAttemptAt, t.requestedAt)],
);

/** Ten per enrolment, stored hashed, each usable once in place of a TOTP code. */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('staff_recovery_codes_user_hash_key').on(t.userId, t.codeHash)],
);

/** The single-use, short-lived token between a password that was right and the second factor. */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('mfa_challenges_hash_key').on(t.tokenHash)],
);

/** A manager's invitation to a new staff account: the link sets the password; single use, expiring. */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('staff_invitations_hash_key').on(t.codeHash)],
);
