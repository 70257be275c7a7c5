import { createAppCheckClient } from '../lib/app-check';
import { solveInWorker } from '../lib/app-check-solver';
import { API_BASE_URL } from '../lib/env';
import { isAppCheckCode, withAppCheckRetry } from '../lib/app-check-retry';
import { isStaffToken } from '../lib/jwt';
import { saveBlob } from '../lib/save-blob';

/**
 * The staff app's one connection to the API (issue 19): its own small client, not the customer
 * app's store, so no customer code is loaded here and no staff code there. It keeps the ID token in
 * memory, renews it with the refresh cookie (once, shared by concurrent calls), sends the
 * app-check token, and turns every failure into API.md's error shape.
 */
export const STAFF_ONLY_MESSAGE = 'Staff only';

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}

export interface StaffUser {
  email: string;
  firstName: string;
}

const appCheck = createAppCheckClient({ baseUrl: API_BASE_URL, solve: solveInWorker, storage: window.sessionStorage });

let idToken: string | null = null;
let refreshing: Promise<string | null> | null = null;
let onSignedOut: () => void = () => {};

export function whenSignedOut(callback: () => void): void {
  onSignedOut = callback;
}

async function raw(path: string, init: RequestInit & { token?: string | null } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json');
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  const send = async (check: string | null) => {
    const sent = new Headers(headers);
    if (check) sent.set('x-app-check', check);
    try {
      return await fetch(`${API_BASE_URL}${path}`, { ...init, headers: sent, credentials: 'include' });
    } catch {
      throw new ApiProblem(0, 'FETCH_ERROR', 'We could not reach the server. Check the connection and try again.');
    }
  };
  // The API prices a proof per sign-in (decision 0048): a spent one is answered APP_CHECK_INVALID, and a fresh one goes through.
  const access = { getAppCheckToken: () => appCheck.getToken(), invalidateAppCheck: () => appCheck.invalidate() };
  const refused = async (res: Response) => res.status === 401 && isAppCheckCode((await problemOf(res.clone())).code);
  return (await withAppCheckRetry(access, send, refused)).answer;
}

async function problemOf(res: Response): Promise<ApiProblem> {
  const body = (await res.json().catch(() => null)) as { error?: string; code?: string; details?: { path: string; message: string }[] } | null;
  return new ApiProblem(res.status, body?.code ?? `HTTP_${res.status}`, body?.error ?? 'Something went wrong. Please try again.', body?.details);
}

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
  const session = (await res.json()) as Session;
  if (!isStaffToken(session.idToken)) {
    if (customer === 'sign-out') await raw('/auth/sign-out', { method: 'POST' }).catch(() => undefined);
    idToken = null;
    throw new ApiProblem(403, 'STAFF_ONLY', STAFF_ONLY_MESSAGE);
  }
  idToken = session.idToken;
  return session.user;
}

export async function signIn(email: string, password: string): Promise<StaffUser> {
  return takeSession(await raw('/auth/sign-in', { method: 'POST', body: JSON.stringify({ email, password }) }), 'sign-out');
}

/**
 * Picks up a session from the refresh cookie (a reload); null when there is none. Throws the
 * problem when it cannot be told now (offline, a 5xx, a 429, app check refused the device).
 */
export async function resumeSession(): Promise<StaffUser | null> {
  const res = await raw('/auth/refresh', { method: 'POST' });
  if (res.status !== 401) return takeSession(res, 'leave');
  const problem = await problemOf(res);
  if (isAppCheckCode(problem.code)) throw problem;
  return null;
}

export async function signOut(): Promise<void> {
  idToken = null;
  await raw('/auth/sign-out', { method: 'POST' }).catch(() => undefined);
  onSignedOut();
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
export async function request(path: string, init: RequestInit = {}): Promise<Response> {
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

export async function requestJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  return (await (await request(path, init)).json()) as T;
}

export const postJson = <T>(path: string, body?: unknown) => requestJson<T>(path, { method: 'POST', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

/** Saves a file the API answers (the run sheet's CSV, a tax invoice) under the name it gives. */
export async function downloadFile(path: string, accept: string, fallbackName: string): Promise<void> {
  const res = await request(path, { headers: { accept } });
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  saveBlob(await res.blob(), name);
}
