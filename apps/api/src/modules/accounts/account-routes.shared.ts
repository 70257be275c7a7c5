import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '@kringle/contracts/errors';
import { byBodyEmail, byIp, byIpAndBodyEmail, rateLimit } from '../../plugins/rate-limit';
import {
  ACCOUNT_LIMITS,
  EMAIL_CHANGE_LIMITS,
  REGISTER_PRICING,
  SIGN_IN_PRICING,
  VERIFY_MAIL_LIMITS,
} from './account-limits';
import { registerProof, signInProof } from './proof-pricing';
import type { Session } from './accounts.service';

/** What the accounts route files have in common (accounts, sessions, account actions). */
export const tags = ['accounts'];

export const errors = (...statuses: (400 | 401 | 409 | 429)[]) =>
  Object.fromEntries(statuses.map((s) => [s, errorBodySchema]));

/**
 * API.md limits, per IP and per e-mail (counters shared by every API process). Per IP they are
 * sized for many families behind one shared address, per e-mail they stay strict (decision
 * "per-ip-limits-for-shared-addresses").
 */
export function accountLimits(app: FastifyInstance, name: keyof typeof ACCOUNT_LIMITS) {
  const { perIp, perEmail, window } = ACCOUNT_LIMITS[name];
  return [
    rateLimit(app, { name: `${name}:ip`, max: perIp, window, key: byIp }),
    rateLimit(app, { name: `${name}:email`, max: perEmail, window, key: byBodyEmail }),
  ];
}

/** Sign-in: strict per e-mail and address, a ceiling per e-mail alone, and proofs priced (issue 36, decision 0048). */
export function signInLimits(app: FastifyInstance) {
  const { perIp, perEmail, window } = ACCOUNT_LIMITS['sign-in'];
  return [
    rateLimit(app, { name: 'sign-in:ip', max: perIp, window, key: byIp }),
    rateLimit(app, { name: 'sign-in:email-ip', max: perEmail, window, key: byIpAndBodyEmail }),
    rateLimit(app, {
      name: 'sign-in:email',
      max: SIGN_IN_PRICING.ceiling.perEmail,
      window: SIGN_IN_PRICING.ceiling.window,
      key: byBodyEmail,
    }),
    signInProof(app),
  ];
}

export function registerLimits(app: FastifyInstance) {
  return [
    ...accountLimits(app, 'register'),
    rateLimit(app, {
      name: 'register:ip-burst',
      max: REGISTER_PRICING.burst.perIp,
      window: REGISTER_PRICING.burst.window,
      key: byIp,
    }),
    registerProof(app),
  ];
}

/** Verification mail: besides one a minute (the service), a daily cap per account and per address. */
export function verifyMailLimits(app: FastifyInstance) {
  return [
    rateLimit(app, {
      name: 'verify-mail:user-day',
      max: VERIFY_MAIL_LIMITS.perUser,
      window: VERIFY_MAIL_LIMITS.window,
      key: (request) => request.auth?.userId,
    }),
    rateLimit(app, {
      name: 'verify-mail:ip-day',
      max: VERIFY_MAIL_LIMITS.perIp,
      window: VERIFY_MAIL_LIMITS.window,
      key: byIp,
    }),
  ];
}

/** A change of address mails the new one: the verification mail's counters, and a cap per new address. */
export function emailChangeLimits(app: FastifyInstance) {
  return [
    ...verifyMailLimits(app),
    rateLimit(app, {
      name: 'email-change:email',
      max: EMAIL_CHANGE_LIMITS.perEmail,
      window: EMAIL_CHANGE_LIMITS.window,
      key: byBodyEmail,
    }),
  ];
}

/** The refresh token goes in the cookie only, never in a body. */
export const sessionBody = (session: Session) => ({
  idToken: session.idToken,
  expiresAt: session.expiresAt,
  user: session.user,
});
