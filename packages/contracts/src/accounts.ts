import { z } from 'zod';
import { staffRoleSchema } from './staff-roles';
import { isCommonPassword } from './common-passwords';
import { isValidEmail, normaliseEmail } from './email';
import { hasHiddenCharacters, HIDDEN_CHARACTERS_MESSAGE } from './names';
import { australianMobileSchema } from './phone';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const NAME_MAX = 80;

export const emailSchema = z
  .string()
  .trim()
  .max(254)
  .refine(isValidEmail, { message: 'Enter a valid email address' })
  .transform(normaliseEmail);

/** Length rule only; `passwordProblem` adds the rules that need the e-mail or the common list. */
export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN, { message: `Use at least ${PASSWORD_MIN} characters` })
  .max(PASSWORD_MAX, { message: `Use at most ${PASSWORD_MAX} characters` });

/**
 * Every password rule of API.md (8–128 characters, not the e-mail, not a common password).
 * Returns the message to show, or null when the password is acceptable. The API answers
 * 400 WEAK_PASSWORD with this message.
 */
export function passwordProblem(password: string, email?: string): string | null {
  if (password.length < PASSWORD_MIN) return `Use at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `Use at most ${PASSWORD_MAX} characters`;
  const lower = password.trim().toLowerCase();
  if (email) {
    const address = normaliseEmail(email);
    if (lower === address || lower === address.split('@')[0]) return 'Do not use your email address as your password';
  }
  if (isCommonPassword(password)) return 'That password is too common. Choose something harder to guess';
  return null;
}

/** A rough 0–4 strength score for the meter on the forms (0 = refused by the API). */
export function passwordStrength(password: string, email?: string): 0 | 1 | 2 | 3 | 4 {
  if (passwordProblem(password, email)) return 0;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  const points =
    (password.length >= 12 ? 1 : 0) +
    (password.length >= 16 ? 1 : 0) +
    (classes >= 3 ? 1 : 0) +
    (classes === 4 ? 1 : 0);
  return Math.max(1, Math.min(4, points)) as 1 | 2 | 3 | 4;
}

/** Control characters (PostgreSQL cannot even store a NUL) or half of a UTF-16 surrogate pair. */
const UNPRINTABLE = /\p{Cc}|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
const nameSchema = z
  .string()
  .trim()
  .min(1, { message: 'Required', abort: true })
  .max(NAME_MAX)
  .refine((v) => !UNPRINTABLE.test(v) && /[\p{L}\p{N}]/u.test(v), {
    message: 'Use letters, without special characters',
  })
  .refine((v) => !hasHiddenCharacters(v), { message: HIDDEN_CHARACTERS_MESSAGE });
/** Digits with optional +, spaces, brackets and dashes (e.g. `0412 345 678`, `+61 412 345 678`). */
export const phoneSchema = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ()-]{6,20}$/, { message: 'Enter a valid phone number' });

export const userSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    emailVerified: z.boolean(),
    firstName: z.string(),
    lastName: z.string(),
    displayName: z.string(),
    phone: z.string().nullable(),
    sms: z.object({
      reminders: z.boolean().meta({ description: 'The day-before reminder by SMS too (default false)' }),
    }),
    preferredLocationId: z.uuid().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof userSchema>;

export const userResponseSchema = z.object({ user: userSchema }).meta({ id: 'UserResponse' });
export type UserResponse = z.infer<typeof userResponseSchema>;

export const messageResponseSchema = z.object({ message: z.string() }).meta({ id: 'MessageResponse' });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/** POST /user */
export const registerRequestSchema = z
  .strictObject({
    email: emailSchema,
    password: passwordSchema,
    firstName: nameSchema,
    lastName: nameSchema,
    phone: phoneSchema.optional(),
  })
  .meta({ id: 'RegisterRequest' });
export type RegisterRequest = z.input<typeof registerRequestSchema>;

/** The register form: the request plus every password rule, so the form shows WEAK_PASSWORD's message inline. */
export const registerFormSchema = registerRequestSchema.superRefine((value, ctx) => {
  const problem = passwordProblem(value.password, value.email);
  if (problem) ctx.addIssue({ code: 'custom', path: ['password'], message: problem });
});
export type RegisterForm = z.input<typeof registerFormSchema>;

/** POST /auth/sign-in. The password is not checked against the rules here (older passwords still sign in). */
export const signInRequestSchema = z
  .strictObject({
    email: emailSchema,
    password: z.string().min(1, { message: 'Required' }).max(PASSWORD_MAX),
  })
  .meta({ id: 'SignInRequest' });
export type SignInRequest = z.input<typeof signInRequestSchema>;

/** POST /auth/sign-in and POST /auth/refresh (the refresh token travels only in the httpOnly cookie). */
export const sessionResponseSchema = z
  .object({
    idToken: z.string(),
    /** When the ID token expires (ISO instant); refresh shortly before or on a 401 UNAUTHENTICATED. */
    expiresAt: z.iso.datetime(),
    user: userSchema,
  })
  .meta({ id: 'SessionResponse' });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/**
 * POST /auth/sign-in for a staff account with a second factor (decision 0050): no ID token and no
 * cookie yet; `mfaToken` goes to POST /auth/mfa with a code. Customers never get this answer.
 */
export const mfaChallengeResponseSchema = z
  .object({
    mfaRequired: z.literal(true),
    /** Single use, valid 5 minutes. */
    mfaToken: z.string(),
  })
  .meta({ id: 'MfaChallengeResponse' });
export type MfaChallengeResponse = z.infer<typeof mfaChallengeResponseSchema>;

/** POST /auth/sign-in: a session, or (staff with a second factor) the challenge for step two. */
export const signInResponseSchema = z
  .union([sessionResponseSchema, mfaChallengeResponseSchema])
  .meta({ id: 'SignInResponse' });
export type SignInResponse = z.infer<typeof signInResponseSchema>;

/** POST /auth/mfa: a 6-digit TOTP code or one unused recovery code (xxxxx-xxxxx). */
export const mfaSignInRequestSchema = z
  .strictObject({
    mfaToken: z.string().min(1).max(200),
    code: z.string().trim().min(6).max(20),
  })
  .meta({ id: 'MfaSignInRequest' });
export type MfaSignInRequest = z.input<typeof mfaSignInRequestSchema>;

/** PATCH /user/me: `null` clears phone or preferred location; `phone` is an Australian mobile (E.164 back). */
export const updateProfileRequestSchema = z
  .strictObject({
    firstName: nameSchema.optional(),
    lastName: nameSchema.optional(),
    phone: australianMobileSchema.nullable().optional(),
    sms: z.strictObject({ reminders: z.boolean() }).optional(),
    preferredLocationId: z.uuid().nullable().optional(),
  })
  .meta({ id: 'UpdateProfileRequest' });
export type UpdateProfileRequest = z.input<typeof updateProfileRequestSchema>;

/** A site origin that action links are built on; must be one of the API's APP_ORIGINS. */
const redirectUrlSchema = z.url({ protocol: /^https?$/ }).max(2048);

/** POST /user/auth/email-verification (spec: `redirectUrl` is the site origin). */
export const emailVerificationRequestSchema = z
  .strictObject({ redirectUrl: redirectUrlSchema })
  .meta({ id: 'EmailVerificationRequest' });
export type EmailVerificationRequest = z.input<typeof emailVerificationRequestSchema>;

/** POST /user/auth/reset-password */
export const sendPasswordResetRequestSchema = z
  .strictObject({ email: emailSchema, redirectUrl: redirectUrlSchema })
  .meta({ id: 'SendPasswordResetRequest' });
export type SendPasswordResetRequest = z.input<typeof sendPasswordResetRequestSchema>;

export const ACTION_MODES = ['verifyEmail', 'resetPassword'] as const;
export const actionModeSchema = z.enum(ACTION_MODES);
export type ActionMode = z.infer<typeof actionModeSchema>;

const oobCodeSchema = z.string().trim().min(1, { message: 'Required' }).max(200);

/** POST /auth/action/check and POST /auth/action/verify-email */
export const actionCodeRequestSchema = z.strictObject({ oobCode: oobCodeSchema }).meta({ id: 'ActionCodeRequest' });
export type ActionCodeRequest = z.input<typeof actionCodeRequestSchema>;

/** POST /auth/action/check: the e-mail is masked (e.g. `d***o@kringle.test`). */
export const actionCheckResponseSchema = z
  .object({ mode: actionModeSchema, email: z.string() })
  .meta({ id: 'ActionCheckResponse' });
export type ActionCheckResponse = z.infer<typeof actionCheckResponseSchema>;

/** POST /auth/action/reset-password */
export const confirmPasswordResetRequestSchema = z
  .strictObject({ oobCode: oobCodeSchema, newPassword: passwordSchema })
  .meta({ id: 'ConfirmPasswordResetRequest' });
export type ConfirmPasswordResetRequest = z.input<typeof confirmPasswordResetRequestSchema>;

/** The new-password form of a reset link (the e-mail rule is checked by the API: the link only shows it masked). */
export const newPasswordFormSchema = z.object({ newPassword: passwordSchema }).superRefine((value, ctx) => {
  const problem = passwordProblem(value.newPassword);
  if (problem) ctx.addIssue({ code: 'custom', path: ['newPassword'], message: problem });
});
export type NewPasswordForm = z.input<typeof newPasswordFormSchema>;

/**
 * POST /user/me/password: the current password proves it is the family (an ID token left on a
 * shared tablet is not enough). The new one follows the same rules as at registration.
 */
export const changePasswordRequestSchema = z
  .strictObject({
    currentPassword: z.string().min(1, { message: 'Required' }).max(PASSWORD_MAX),
    newPassword: passwordSchema,
  })
  .meta({ id: 'ChangePasswordRequest' });
export type ChangePasswordRequest = z.input<typeof changePasswordRequestSchema>;

/**
 * PUT /user/me/email: an account not yet verified corrects a mistyped address (issue 37 item 10,
 * decision 0068). The password again, as for a password change: a token left signed in must not be
 * enough to move the account to another mailbox. `redirectUrl` builds the new verification link, as
 * POST /user/auth/email-verification does.
 */
export const changeEmailRequestSchema = z
  .strictObject({
    email: emailSchema,
    password: z.string().min(1, { message: 'Required' }).max(PASSWORD_MAX),
    redirectUrl: redirectUrlSchema,
  })
  .meta({ id: 'ChangeEmailRequest' });
export type ChangeEmailRequest = z.input<typeof changeEmailRequestSchema>;

/** The profile menu's change-password form (the e-mail rule is checked by the API). */
export const changePasswordFormSchema = changePasswordRequestSchema.superRefine((value, ctx) => {
  const problem = passwordProblem(value.newPassword);
  if (problem) ctx.addIssue({ code: 'custom', path: ['newPassword'], message: problem });
  else if (value.newPassword === value.currentPassword)
    ctx.addIssue({
      code: 'custom',
      path: ['newPassword'],
      message: 'Choose a password different from the current one',
    });
});

/** The ID token's payload (decode it on the client without verifying; the API verifies). */
export const idTokenClaimsSchema = z.object({
  sub: z.uuid(),
  email: z.string(),
  email_verified: z.boolean(),
  /** True for staff accounts, which this app refuses ('Not Authorized to login'). */
  dashboard_user: z.boolean(),
  /** Staff accounts only (decision 0050): the role the account had when the token was issued. */
  staff_role: staffRoleSchema.optional(),
  /**
   * The account's session epoch when the token was issued (decision 0063): ending every session
   * raises it and older tokens are refused at once. Absent on tokens issued before it existed (0).
   */
  session_epoch: z.number().int().nonnegative().optional(),
  /**
   * Staff tokens only: how the session was signed into (RFC 8176): 'pwd', plus 'otp' after a second-factor code
   * (decision 0080).
   */
  amr: z.array(z.string()).optional(),
  /** Staff tokens only: the session (refresh family) the token belongs to (decision 0080). */
  sid: z.uuid().optional(),
  iss: z.string(),
  aud: z.union([z.string(), z.array(z.string())]),
  iat: z.number(),
  exp: z.number(),
});
export type IdTokenClaims = z.infer<typeof idTokenClaimsSchema>;

/** Shows `d***o@kringle.test` for `demo@kringle.test`: enough to recognise, not to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  const local = email.slice(0, at);
  const shown = local.length <= 2 ? `${local.charAt(0)}***` : `${local.charAt(0)}***${local.charAt(local.length - 1)}`;
  return `${shown}${email.slice(at)}`;
}
