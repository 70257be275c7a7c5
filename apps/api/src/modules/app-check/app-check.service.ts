import { createHmac, randomUUID } from 'node:crypto';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { errors } from '../../lib/errors';
import type { Clock } from '../../lib/clock';
import { deleteExpiredChallenges, markChallengeUsed } from './app-check.repository';

export const APP_CHECK = {
  /** A phone finds the number in well under a second (SHA-256, about 25 000 hashes on average). */
  maxNumber: 50_000,
  challengeTtlMs: 5 * 60_000,
  tokenTtlMs: 60 * 60_000,
  issuer: 'kringle-app-check',
  audience: 'kringle-api',
};

/** The solved challenge inside the base64 payload (the ALTCHA widget also sends `took`). */
const solutionSchema = z.strictObject({
  algorithm: z.literal('SHA-256'),
  challenge: z.string().regex(/^[0-9a-f]{64}$/),
  number: z.number().int().min(0).max(APP_CHECK.maxNumber),
  salt: z.string().min(1).max(512),
  signature: z.string().regex(/^[0-9a-f]{64}$/),
  took: z.number().nonnegative().optional(),
});

export interface AppCheckDeps {
  db: Db;
  clock: Clock;
  secret: string;
}

/** The token key is derived from the challenge HMAC key, so one secret serves both and neither is reused as-is. */
function tokenKey(secret: string): Uint8Array {
  return new Uint8Array(createHmac('sha256', secret).update('kringle/app-check-token/v1').digest());
}

export async function issueChallenge(deps: AppCheckDeps) {
  const challenge = await createChallenge({
    hmacKey: deps.secret,
    algorithm: 'SHA-256',
    maxnumber: APP_CHECK.maxNumber,
    expires: new Date(deps.clock.now().getTime() + APP_CHECK.challengeTtlMs),
  });
  return {
    algorithm: 'SHA-256' as const,
    challenge: challenge.challenge,
    salt: challenge.salt,
    signature: challenge.signature,
    maxnumber: challenge.maxnumber ?? APP_CHECK.maxNumber,
  };
}

function decodeSolution(payload: string): z.infer<typeof solutionSchema> | null {
  try {
    const parsed = solutionSchema.safeParse(JSON.parse(Buffer.from(payload, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A solved, unexpired, never-used challenge buys one app-check token (a 1 h HS256 JWT). */
export async function exchangeSolution(
  deps: AppCheckDeps,
  payload: string,
): Promise<{ token: string; expiresAt: string }> {
  const solution = decodeSolution(payload);
  if (!solution) throw errors.attestationFailed();
  const expires = Number(extractParams(solution).expires);
  const now = deps.clock.now();
  if (!Number.isFinite(expires) || expires * 1000 <= now.getTime()) throw errors.attestationFailed();
  // Expiry was checked above against the app clock; altcha-lib would use the system clock.
  if (!(await verifySolution(solution, deps.secret, false))) throw errors.attestationFailed();
  if (!(await markChallengeUsed(deps.db, solution.signature, new Date(expires * 1000))))
    throw errors.attestationFailed();
  if (Math.random() < 0.02) await deleteExpiredChallenges(deps.db, now).catch(() => {});

  const expiresAt = new Date(now.getTime() + APP_CHECK.tokenTtlMs);
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(APP_CHECK.issuer)
    .setAudience(APP_CHECK.audience)
    .setJti(randomUUID())
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(tokenKey(deps.secret));
  return { token, expiresAt: expiresAt.toISOString() };
}

/** True for a token this API issued that has not expired (by the app clock). */
export async function verifyAppCheckToken(token: string, secret: string, clock: Clock): Promise<boolean> {
  try {
    await jwtVerify(token, tokenKey(secret), {
      algorithms: ['HS256'],
      issuer: APP_CHECK.issuer,
      audience: APP_CHECK.audience,
      currentDate: clock.now(),
      requiredClaims: ['exp', 'iat', 'jti'],
    });
    return true;
  } catch {
    return false;
  }
}
