import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import type { ManualClock } from '../../src/lib/clock';
import { REFRESH_COOKIE } from '../../src/modules/accounts/refresh-cookie';

/** Shared by the staff accounts and second-factor tests (not a test file itself). */

export const codeAt = (secret: string, at: Date) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: at.getTime(),
  });

export const bearer = (idToken: string) => ({ authorization: `Bearer ${idToken}` });

export function cookieOf(res: LightMyRequestResponse): string | undefined {
  return res.cookies.find((c) => c.name === REFRESH_COOKIE)?.value;
}

export async function signIn(app: FastifyInstance, email: string, password: string) {
  return app.inject({ method: 'POST', url: '/api/v1/auth/sign-in', payload: { email, password } });
}

export async function secondStep(app: FastifyInstance, mfaToken: string, code: string, remoteAddress?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/auth/mfa',
    payload: { mfaToken, code },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/**
 * Signs in (no second factor yet), enrols one with the TOTP library as an app would, and answers
 * the session's ID token after enrolment (and its refresh cookie), the secret and the recovery codes. Moves the clock
 * on 30 s, past the code used.
 */
export async function enrol(app: FastifyInstance, clock: ManualClock, email: string, password: string) {
  const session = await signIn(app, email, password);
  if (session.statusCode !== 200 || !session.json().idToken) throw new Error(`sign-in failed: ${session.body}`);
  const idToken = session.json().idToken as string;
  const setup = await app.inject({
    method: 'POST',
    url: '/api/v1/staff/mfa/setup',
    headers: bearer(idToken),
    payload: {},
  });
  if (setup.statusCode !== 200) throw new Error(`setup failed: ${setup.body}`);
  const secret = setup.json().secret as string;
  const confirm = await app.inject({
    method: 'POST',
    url: '/api/v1/staff/mfa/confirm',
    headers: bearer(idToken),
    payload: { code: codeAt(secret, clock.now()) },
  });
  if (confirm.statusCode !== 200) throw new Error(`confirm failed: ${confirm.body}`);
  // Enrolment raised the session epoch (issue 48): this session stays, with a fresh token, as the staff app's refresh
  // on a 401 gets it.
  const refreshed = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/refresh',
    cookies: { [REFRESH_COOKIE]: cookieOf(session)! },
  });
  if (refreshed.statusCode !== 200) throw new Error(`refresh after enrolment failed: ${refreshed.body}`);
  clock.advance(30_000);
  return {
    idToken: refreshed.json().idToken as string,
    cookie: cookieOf(refreshed)!,
    enrollingIdToken: idToken,
    secret,
    recoveryCodes: confirm.json().recoveryCodes as string[],
    otpauthUrl: setup.json().otpauthUrl as string,
  };
}
