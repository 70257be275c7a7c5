import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../../lib/errors';
import { byAppCheckToken, byBodyEmail, rateCount, type RateLimitHandler } from '../../plugins/rate-limit';
import { REGISTER_PRICING, SIGN_IN_PRICING } from './account-limits';

/**
 * 401 APP_CHECK_INVALID: the web app answers every APP_CHECK_* by solving a new proof and retrying
 * once, so the owner's sign-in goes through while each guess costs a guesser a proof of work.
 */
const proofSpent = () => errors.appCheckInvalid('This app needs to verify itself again. Please try again.');

/** Only where app check is enforced: without it there is no proof to price. */
const priced = (app: FastifyInstance) => app.config.APP_CHECK_MODE === 'enforce' && app.config.RATE_LIMIT_MODE === 'on';

/** Sign-in's proof pricing: 5 attempts per proof, 1 while the e-mail has had more than 10 attempts in the minute. */
export function signInProof(app: FastifyInstance): RateLimitHandler {
  if (!priced(app)) return async () => {};
  const { pressure, perProof, perProofUnderPressure, proofWindow } = SIGN_IN_PRICING;
  const underPressure = rateCount(app, {
    name: 'sign-in:email-pressure',
    max: pressure.perEmail,
    window: pressure.window,
    key: byBodyEmail,
  });
  const uses = rateCount(app, { name: 'sign-in:proof', max: perProof, window: proofWindow, key: byAppCheckToken });
  // Counted per token and e-mail, so a fresh proof spent on one account is not spent on another.
  const freshUses = rateCount(app, {
    name: 'sign-in:proof-fresh',
    max: perProofUnderPressure,
    window: proofWindow,
    key: (r: FastifyRequest) => tokenAndEmail(r),
  });
  return async (request) => {
    const [pressed, spent, spentHere] = await Promise.all([underPressure(request), uses(request), freshUses(request)]);
    if (spent || (pressed && spentHere)) throw proofSpent();
  };
}

/** Registration's: 3 accounts per proof. */
export function registerProof(app: FastifyInstance): RateLimitHandler {
  if (!priced(app)) return async () => {};
  const uses = rateCount(app, {
    name: 'register:proof',
    max: REGISTER_PRICING.perProof,
    window: REGISTER_PRICING.proofWindow,
    key: byAppCheckToken,
  });
  return async (request) => {
    if (await uses(request)) throw proofSpent();
  };
}

function tokenAndEmail(request: FastifyRequest): string | undefined {
  const token = byAppCheckToken(request);
  const email = byBodyEmail(request);
  return token && email ? `${token} ${email}` : undefined;
}
