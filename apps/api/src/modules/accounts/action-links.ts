import type { ActionMode } from '@kringle/contracts/accounts';
import type { DbOrTx } from '../../db/client';
import { errors } from '../../lib/errors';
import * as actionCodes from './action-codes.repository';
import { randomToken, sha256 } from './secure-tokens';

const HOUR_MS = 60 * 60 * 1000;
/** API.md: verify links live 24 h, reset links 1 h. */
export const ACTION_CODE_TTL_MS: Record<ActionMode, number> = { verifyEmail: 24 * HOUR_MS, resetPassword: HOUR_MS };

/** The origin of `redirectUrl` when it is one of the app origins (APP_ORIGINS); 400 REDIRECT_NOT_ALLOWED otherwise. */
export function allowedOrigin(redirectUrl: string, appOrigins: readonly string[]): string {
  let origin: string;
  try {
    origin = new URL(redirectUrl).origin;
  } catch {
    origin = '';
  }
  if (!appOrigins.includes(origin)) throw errors.redirectNotAllowed();
  return origin;
}

/** A new single-use code, stored hashed, and the `/verify` link that carries it. */
export async function createActionLink(
  tx: DbOrTx,
  userId: string,
  mode: ActionMode,
  origin: string,
  now: Date,
): Promise<string> {
  const code = randomToken();
  await actionCodes.insertActionCode(tx, {
    userId,
    mode,
    codeHash: sha256(code),
    expiresAt: new Date(now.getTime() + ACTION_CODE_TTL_MS[mode]),
    createdAt: now,
  });
  const url = new URL('/verify', origin);
  url.searchParams.set('mode', mode);
  url.searchParams.set('oobCode', code);
  return url.toString();
}
