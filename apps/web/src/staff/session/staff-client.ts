import { ERROR_CATALOGUE } from '@kringle/contracts/error-catalogue';
import { ApiProblem, readApiError } from '../../lib/api-error';
import { apiFetch, apiUrl, type ApiFetchInit } from '../../lib/api-fetch';
import { createAppCheckClient } from '../../lib/app-check';
import type { AppCheckAccess } from '../../lib/app-check-retry';
import { solveInWorker } from '../../lib/app-check-solver';
import { API_BASE_URL } from '../../lib/env';
import { isStaffToken } from '../../lib/jwt';
import { saveBlob } from '../../lib/save-blob';
import { callWithSession, createSessionManager } from '../../lib/session-manager';

/**
 * The staff app's calls over the web's one request path (lib/api-fetch.ts: app check and its
 * retry rule, the server's clock, one error type) and its one session manager
 * (lib/session-manager.ts: refresh, retry, sign-out), without the customer app's store, so no
 * customer code is loaded here and no staff code there. It keeps the ID token in memory; every
 * failure is thrown as an ApiProblem in API.md's error shape.
 */
export const STAFF_ONLY_MESSAGE = ERROR_CATALOGUE.STAFF_ONLY.text;
const UNREACHABLE = 'We could not reach the server. Check the connection and try again.';
const FALLBACK = 'Something went wrong. Please try again.';

export interface StaffUser {
  email: string;
  firstName: string;
}

const appCheck = createAppCheckClient({ baseUrl: API_BASE_URL, solve: solveInWorker, storage: window.sessionStorage });
const appCheckAccess: AppCheckAccess = {
  getAppCheckToken: () => appCheck.getToken(),
  invalidateAppCheck: () => appCheck.invalidate(),
};

let idToken: string | null = null;
/** Why the session ended: `everywhere` when this device ended every session of the account. */
export type SignedOutHow = 'here' | 'everywhere';
let onSignedOut: (how?: SignedOutHow) => void = () => {};

export function whenSignedOut(callback: (how?: SignedOutHow) => void): void {
  onSignedOut = callback;
}

/** `fetchFn`: another transport for the one path (the photo uploads' XMLHttpRequest, for its progress). */
type Init = ApiFetchInit & { token?: string | null; fetchFn?: typeof fetch };

async function rawCall(
  path: string,
  { token, fetchFn, ...init }: Init = {},
): Promise<{ response: Response; appCheckRetried: boolean }> {
  // JSON bodies are strings; a FormData body sets its own multipart type and boundary.
  const headers = {
    ...(typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}),
    ...init.headers,
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  try {
    return await apiFetch({ ...appCheckAccess, fetchFn }, apiUrl(API_BASE_URL, path), { ...init, headers });
  } catch {
    throw new ApiProblem({ status: 'FETCH_ERROR', data: { error: UNREACHABLE, code: 'FETCH_ERROR' } });
  }
}

const raw = async (path: string, init: Init = {}): Promise<Response> => (await rawCall(path, init)).response;

const problemOf = async (res: Response) => new ApiProblem(await readApiError(res, FALLBACK));

interface Session {
  idToken: string;
  user: StaffUser;
}

/**
 * A session only counts if its token is a staff token. A customer's typed in here is signed out
 * at once; one found in the cookie (the family's app open in the same browser) is left alone.
 */
async function takeSession(res: Response, customer: 'sign-out' | 'leave'): Promise<StaffUser> {
  if (!res.ok) throw await problemOf(res);
  return takeSessionBody((await res.json()) as Session, customer);
}

async function takeSessionBody(session: Session, customer: 'sign-out' | 'leave'): Promise<StaffUser> {
  if (!isStaffToken(session.idToken)) {
    if (customer === 'sign-out') await sessions.signOut();
    idToken = null;
    throw staffOnly();
  }
  idToken = session.idToken;
  return session.user;
}

/** Signed in, or (an account with a second factor) the token for `signInSecondStep` (decision 0050). */
export type SignInStep = { kind: 'signed-in'; user: StaffUser } | { kind: 'second-step'; mfaToken: string };

export async function signIn(email: string, password: string): Promise<SignInStep> {
  const res = await raw('/auth/sign-in', { method: 'POST', body: JSON.stringify({ email, password }) });
  if (!res.ok) throw await problemOf(res);
  const body = (await res.json()) as Session | { mfaRequired: true; mfaToken: string };
  if ('mfaRequired' in body) return { kind: 'second-step', mfaToken: body.mfaToken };
  return { kind: 'signed-in', user: await takeSessionBody(body, 'sign-out') };
}

/** The code from the app (or a recovery code) for the token sign-in answered. */
export async function signInSecondStep(mfaToken: string, code: string): Promise<StaffUser> {
  return takeSession(await raw('/auth/mfa', { method: 'POST', body: JSON.stringify({ mfaToken, code }) }), 'sign-out');
}

/** A call that needs no session (accepting an invitation). */
export async function publicPostJson<T>(path: string, body: unknown): Promise<T> {
  const res = await raw(path, { method: 'POST', body: JSON.stringify(body) });
  if (!res.ok) throw await problemOf(res);
  return (await res.json()) as T;
}

/**
 * The web's one session manager (lib/session-manager.ts): the refresh, its single flight, "gone"
 * against "not now", and the sign-out are the customer app's rules too; no tabs take turns here
 * (as before), and a customer's session is the other app's.
 */
const sessions = createSessionManager<Session>({
  access: { ...appCheckAccess, apiBaseUrl: API_BASE_URL },
  readSession: async (body) => {
    const session = body as Session | null;
    return typeof session?.idToken === 'string' ? session : null;
  },
  isOwnToken: isStaffToken,
  words: { unreachable: UNREACHABLE, fallback: FALLBACK },
});

const signedOutProblem = () =>
  new ApiProblem({ status: 401, data: { error: ERROR_CATALOGUE.UNAUTHENTICATED.text, code: 'UNAUTHENTICATED' } });
const staffOnly = () => new ApiProblem({ status: 403, data: { error: STAFF_ONLY_MESSAGE, code: 'STAFF_ONLY' } });

/**
 * Picks up a session from the refresh cookie (a reload); null when there is none. Throws the
 * problem when it cannot be told now (offline, a 5xx, a 429, app check refused the device), and
 * STAFF_ONLY for a customer's session, which is left alone (decision 0043).
 */
export async function resumeSession(): Promise<StaffUser | null> {
  const outcome = await sessions.trade();
  switch (outcome.kind) {
    case 'session':
      idToken = outcome.session.idToken;
      return outcome.session.user;
    case 'foreign':
      idToken = null;
      throw staffOnly();
    case 'unavailable':
      throw outcome.problem;
    default:
      return null;
  }
}

/** Ends the session on this device: `callServer` when the member asked (Sign out). */
async function endSession(how: SignedOutHow, callServer: boolean): Promise<void> {
  idToken = null;
  await sessions.signOut({ callServer });
  onSignedOut(how);
}

export const signOut = (): Promise<void> => endSession('here', true);

/**
 * Ends every session of this staff account (decision 0062): every device's refresh family is
 * revoked, the ID tokens already issued are refused, and this one's cookie is cleared; then the
 * app shows the sign-in. Throws when the server
 * could not be told: the sessions stand and the member stays signed in to try again.
 */
export async function signOutEverywhere(): Promise<void> {
  await request('/staff/sign-out-everywhere', { method: 'POST', body: '{}' });
  await endSession('everywhere', false);
}

/**
 * A call with the staff token, under the session rule both apps share (callWithSession): one
 * renewal and retry on a 401 (the token lives 15 minutes). A renewal that cannot be had just now
 * (offline, a 5xx, a 429) throws its problem: the session stands, and signing staff out in the
 * middle of the queue for that would cost them a sign-in. One that finds the session gone signs
 * staff out here.
 */
export async function request(path: string, init: Init = {}): Promise<Response> {
  const call = await callWithSession(
    {
      token: () => idToken,
      // Renewed when the API says it ran out (the staff client does not read its expiry).
      renewFirst: () => false,
      renew: () =>
        sessions.renew({
          keep: (session) => (idToken = session.idToken),
          refuse: () => (idToken = null),
        }),
      end: () => endSession('here', false),
    },
    async (token) => {
      const { response, appCheckRetried } = await rawCall(path, { ...init, token });
      return { response, status: response.status, appCheckRetried };
    },
  );
  if (call.kind === 'unavailable') throw call.problem;
  if (call.kind === 'signed-out') throw call.answer ? await problemOf(call.answer.response) : signedOutProblem();
  if (!call.answer.response.ok) throw await problemOf(call.answer.response);
  return call.answer.response;
}

export async function requestJson<T>(path: string, init: Init = {}): Promise<T> {
  return (await (await request(path, init)).json()) as T;
}

export const postJson = <T>(path: string, body?: unknown) =>
  requestJson<T>(path, { method: 'POST', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

/** Saves a file the API answers (the run sheet's CSV, a tax invoice) under the name it gives. */
export async function downloadFile(path: string, accept: string, fallbackName: string): Promise<void> {
  const res = await request(path, { headers: { accept } });
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  saveBlob(await res.blob(), name);
}
