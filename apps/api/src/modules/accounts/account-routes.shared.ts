import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '@kringle/contracts/errors';
import { byBodyEmail, byIp, rateLimit } from '../../plugins/rate-limit';
import { ACCOUNT_LIMITS } from './account-limits';
import type { Session } from './accounts.service';

/** What the accounts route files have in common (accounts, sessions, account actions). */
export const tags = ['accounts'];

export const errors = (...statuses: (400 | 401 | 409 | 429)[]) => Object.fromEntries(statuses.map((s) => [s, errorBodySchema]));

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

/** The refresh token goes in the cookie only, never in a body. */
export const sessionBody = (session: Session) => ({ idToken: session.idToken, expiresAt: session.expiresAt, user: session.user });
