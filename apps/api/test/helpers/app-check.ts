import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { solveAppCheck } from './solve-app-check';

export interface Challenge {
  algorithm: string;
  challenge: string;
  salt: string;
  signature: string;
  maxnumber: number;
}

/** A solved ALTCHA challenge from this app, as the web app sends it (`tamper` edits it first). */
export async function solvedPayload(app: FastifyInstance, tamper: (p: Record<string, unknown>) => void = () => {}) {
  const res = await app.inject({ method: 'POST', url: '/api/v1/app-check/challenge' });
  expect(res.statusCode).toBe(200);
  const c = res.json<Challenge>();
  expect(c.algorithm).toBe('SHA-256');
  const number = solveAppCheck(c.challenge, c.salt, c.maxnumber);
  expect(number).not.toBeNull();
  const payload: Record<string, unknown> = {
    algorithm: c.algorithm,
    challenge: c.challenge,
    number,
    salt: c.salt,
    signature: c.signature,
  };
  tamper(payload);
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

/** An app-check token the app issued, through its own challenge and exchange. */
export async function appCheckToken(app: FastifyInstance): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/app-check/exchange',
    payload: { payload: await solvedPayload(app) },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ token: string }>().token;
}
