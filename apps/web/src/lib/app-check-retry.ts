/** What a caller needs of app check: the current token, and a way to drop one the API refused. */
export interface AppCheckAccess {
  getAppCheckToken: () => Promise<string | null>;
  invalidateAppCheck?: () => void;
}

export const isAppCheckCode = (code: string | null | undefined): boolean => !!code?.startsWith('APP_CHECK');

/**
 * The one app-check retry rule, for every way the app calls the API (base query, the auth
 * cookie calls, the live availability stream): a 401 APP_CHECK_* means the token was stale or
 * missing, not that the session is lost, so the token is dropped, a fresh one fetched and the
 * call sent once more. `send` puts the token it is given in X-App-Check (null: none could be
 * had; the API decides by APP_CHECK_MODE and says so). `retried` tells the caller the answer it
 * holds is already the second one.
 */
export async function withAppCheckRetry<T>(
  access: AppCheckAccess,
  send: (appCheckToken: string | null) => Promise<T>,
  refused: (answer: T) => boolean | Promise<boolean>,
): Promise<{ answer: T; retried: boolean }> {
  const token = () => access.getAppCheckToken().catch(() => null);
  const first = await send(await token());
  if (!(await refused(first))) return { answer: first, retried: false };
  access.invalidateAppCheck?.();
  return { answer: await send(await token()), retried: true };
}
