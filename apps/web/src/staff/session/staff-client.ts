import { ERROR_CATALOGUE } from '@kringle/contracts/error-catalogue';
import { ApiProblem, readApiError } from '../../lib/api-error';
import { apiFetch, apiUrl, type ApiFetchInit } from '../../lib/api-fetch';
import { createAppCheckClient } from '../../lib/app-check';
import { isAppCheckCode, type AppCheckAccess } from '../../lib/app-check-retry';
import { solveInWorker } from '../../lib/app-check-solver';
import { API_BASE_URL } from '../../lib/env';
import { isStaffToken } from '../../lib/jwt';
import { saveBlob } from '../../lib/save-blob';

/**
 * The staff app's session over the web's one request path (lib/api-fetch.ts: app check and its
 * retry rule, the server's clock, one error type), without the customer app's store, so no
 * customer code is loaded here and no staff code there. It keeps the ID token in memory and renews
 * it with the refresh cookie (once, shared by concurrent calls); every failure is thrown as an
 * ApiProblem in API.md's error shape.
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
let refreshing: Promise<string | null> | null = null;
/** Sign-outs on this device: a refresh answered after one (a call renewing the token meanwhile) is not taken. */
let signOuts = 0;
/** Why the session ended: `everywhere` when this device ended every session of the account. */
export type SignedOutHow = 'here' | 'everywhere';
let onSignedOut: (how?: SignedOutHow) => void = () => {};

export function whenSignedOut(callback: (how?: SignedOutHow) => void): void {
  onSignedOut = callback;
}

/** `fetchFn`: another transport for the one path (the photo uploads' XMLHttpRequest, for its progress). */
type Init = ApiFetchInit & { token?: string | null; fetchFn?: typeof fetch };

async function raw(path: string, { token, fetchFn, ...init }: Init = {}): Promise<Response> {
  // JSON bodies are strings; a FormData body sets its own multipart type and boundary.
  const headers = {
    ...(typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}),
    ...init.headers,
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  try {
    return (await apiFetch({ ...appCheckAccess, fetchFn }, apiUrl(API_BASE_URL, path), { ...init, headers })).response;
  } catch {
    throw new ApiProblem({ status: 'FETCH_ERROR', data: { error: UNREACHABLE, code: 'FETCH_ERROR' } });
  }
}

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
    if (customer === 'sign-out') await raw('/auth/sign-out', { method: 'POST' }).catch(() => undefined);
    idToken = null;
    throw new ApiProblem({ status: 403, data: { error: STAFF_ONLY_MESSAGE, code: 'STAFF_ONLY' } });
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
 * Picks up a session from the refresh cookie (a reload); null when there is none. Throws the
 * problem when it cannot be told now (offline, a 5xx, a 429, app check refused the device).
 */
export async function resumeSession(): Promise<StaffUser | null> {
  const before = signOuts;
  const res = await raw('/auth/refresh', { method: 'POST' });
  if (res.status !== 401) {
    if (!res.ok) throw await problemOf(res);
    const session = (await res.json()) as Session;
    return signOuts === before ? takeSessionBody(session, 'leave') : null;
  }
  const problem = await problemOf(res);
  if (isAppCheckCode(problem.code)) throw problem;
  return null;
}

export async function signOut(): Promise<void> {
  signOuts++;
  idToken = null;
  await raw('/auth/sign-out', { method: 'POST' }).catch(() => undefined);
  onSignedOut();
}

/**
 * Ends every session of this staff account (decision 0062): every device's refresh family is
 * revoked, the ID tokens already issued are refused, and this one's cookie is cleared; then the
 * app shows the sign-in. Throws when the server
 * could not be told: the sessions stand and the member stays signed in to try again.
 */
export async function signOutEverywhere(): Promise<void> {
  await request('/staff/sign-out-everywhere', { method: 'POST', body: '{}' });
  signOuts++;
  idToken = null;
  onSignedOut('everywhere');
}

/**
 * The renewed token, or null when the session is gone (the cookie refused, or not a staff one).
 * Throws the problem when it cannot be had just now (offline, a 5xx, a 429): the session stands,
 * and signing staff out in the middle of the queue for that would cost them a sign-in.
 */
function refreshOnce(): Promise<string | null> {
  refreshing ??= resumeSession()
    .then((user) => (user ? idToken : null))
    .catch((err: unknown) => {
      if (err instanceof ApiProblem && err.code === 'STAFF_ONLY') return null;
      throw err;
    })
    .finally(() => (refreshing = null));
  return refreshing;
}

/** A call with the staff token; one refresh and retry on a 401 (the token lives 15 minutes). */
export async function request(path: string, init: Init = {}): Promise<Response> {
  let res = await raw(path, { ...init, token: idToken });
  if (res.status === 401) {
    const fresh = await refreshOnce();
    if (!fresh) {
      onSignedOut();
      throw await problemOf(res);
    }
    res = await raw(path, { ...init, token: fresh });
  }
  if (!res.ok) throw await problemOf(res);
  return res;
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
