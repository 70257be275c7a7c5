import { ERROR_CATALOGUE } from '@kringle/contracts/error-catalogue';
import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import { apiErrorOf, type ApiError } from './api-error';
import { apiFetch } from './api-fetch';
import type { AppCheckAccess } from './app-check-retry';
import { callWithSession } from './session-manager';

export interface RequestArgs {
  url: string;
  method?: string;
  body?: unknown;
  params?: Record<string, string | number | boolean | null | undefined>;
  headers?: Record<string, string>;
  /** 'blob' for PDFs and .ics files; JSON otherwise. */
  responseHandler?: 'json' | 'text' | 'blob';
}

/**
 * Per-endpoint opt-outs (spec §5, §7): e.g. register skips auth, the verification e-mail call skips the verified check.
 */
export interface ApiExtraOptions {
  skipAuth?: boolean;
  skipVerified?: boolean;
  /** The page shows a 429's message itself, next to what was refused: no toast repeating it. */
  showsRateLimit?: boolean;
}

export interface AuthSnapshot {
  initialised: boolean;
  idToken: string | null;
  user: { emailVerified: boolean } | null;
}

type Dispatch = (action: never) => unknown;

/** What the base query needs from the rest of the app, injected through the store's thunk `extra`. */
export interface BaseQueryDeps extends AppCheckAccess {
  baseUrl: string;
  timeoutMs?: number;
  fetchFn?: typeof fetch;
  selectAuth: (state: unknown) => AuthSnapshot;
  whenAuthReady: () => Promise<void>;
  /**
   * A new ID token, or null when the session is gone. Rejects when none could be had just now
   * (offline, a 5xx, a 429): the session stands and the family stays signed in. Must be single-flight.
   */
  refreshIdToken: (dispatch: Dispatch) => Promise<string | null>;
  /** Ends a session the refresh found gone, here (the server already refused it). */
  signOut: (dispatch: Dispatch) => Promise<void>;
  notifyError: (message: string) => void;
}

export interface BaseQueryExtra {
  baseQuery: BaseQueryDeps;
}

// The API's own words for these codes, so a local refusal reads the same as the server's.
export const NOT_AUTHENTICATED = ERROR_CATALOGUE.UNAUTHENTICATED.text;
export const EMAIL_NOT_VERIFIED = ERROR_CATALOGUE.EMAIL_NOT_VERIFIED.text;
const MESSAGES = {
  FETCH_ERROR: 'We could not reach the server. Check your connection and try again.',
  TIMEOUT_ERROR: 'The server took too long to answer. Please try again.',
  PARSING_ERROR: 'The server sent an answer we could not read. Please try again.',
} as const;

const clientError = (status: number, error: string, code: string): { error: ApiError } => ({
  error: { status, data: { error, code } },
});

/** The ID token had to be renewed and could not be just now; the call was not sent. */
export const SESSION_UNAVAILABLE = 'We could not renew your sign-in just now. Please try again in a moment.';
const sessionUnavailable = (): { error: ApiError } => ({
  error: { status: 'FETCH_ERROR', data: { error: SESSION_UNAVAILABLE, code: 'SESSION_UNAVAILABLE' } },
});

type Result = { data: unknown; error?: undefined } | { error: ApiError; data?: undefined };

function buildUrl(baseUrl: string, args: RequestArgs): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(args.params ?? {})) {
    if (value !== undefined && value !== null) query.set(key, String(value));
  }
  const qs = query.toString();
  return `${baseUrl.replace(/\/$/, '')}/${args.url.replace(/^\//, '')}${qs ? `?${qs}` : ''}`;
}

/**
 * The last answer of each GET the API tagged with an ETag (availability: decision 0029), per store,
 * so a poll asks "changed since?" with If-None-Match and an unchanged day comes back as a bodiless
 * 304. Setting If-None-Match ourselves takes the browser's HTTP cache out of it (the fetch spec
 * makes such a request bypass it), so the 304 reaches us and the kept JSON is the answer.
 */
const revalidation = new WeakMap<BaseQueryDeps, Map<string, { etag: string; body: unknown }>>();
const REVALIDATED_MAX = 50;

function revalidationOf(deps: BaseQueryDeps) {
  let memo = revalidation.get(deps);
  if (!memo) revalidation.set(deps, (memo = new Map()));
  return memo;
}

/** One call through the request path (api-fetch.ts), read into API.md's shapes; `appCheckRetried` as apiFetch says. */
async function send(
  deps: BaseQueryDeps,
  args: RequestArgs,
  headers: Record<string, string>,
  outer: AbortSignal,
): Promise<{ result: Result; appCheckRetried: boolean }> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, deps.timeoutMs ?? 30_000);
  const onAbort = () => controller.abort();
  outer.addEventListener('abort', onAbort);
  const hasBody = args.body !== undefined;
  const url = buildUrl(deps.baseUrl, args);
  const memo =
    (args.method ?? 'GET') === 'GET' && (args.responseHandler ?? 'json') === 'json' ? revalidationOf(deps) : null;
  const kept = memo?.get(url);
  let appCheckRetried = false;
  const read = async (): Promise<Result> => {
    let response: Response;
    try {
      ({ response, appCheckRetried } = await apiFetch(deps, url, {
        method: args.method ?? 'GET',
        headers: {
          Accept: 'application/json',
          ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
          ...(kept ? { 'If-None-Match': kept.etag } : {}),
          ...headers,
          ...args.headers,
        },
        body: hasBody ? JSON.stringify(args.body) : undefined,
        signal: controller.signal,
      }));
    } catch {
      const kind = timedOut ? 'TIMEOUT_ERROR' : 'FETCH_ERROR';
      return { error: { status: kind, data: { error: MESSAGES[kind], code: kind } } };
    }
    if (response.status === 304 && kept) return { data: kept.body };
    let body: unknown;
    try {
      if (response.ok && args.responseHandler === 'blob') body = await response.blob();
      else {
        const text = await response.text();
        body = args.responseHandler === 'text' ? text : text ? JSON.parse(text) : null;
      }
    } catch {
      return { error: { status: 'PARSING_ERROR', data: { error: MESSAGES.PARSING_ERROR, code: 'PARSING_ERROR' } } };
    }
    if (response.ok) {
      const etag = response.headers.get('etag');
      if (memo && etag) {
        memo.delete(url); // re-inserted last: the oldest is dropped first
        if (memo.size >= REVALIDATED_MAX) memo.delete(memo.keys().next().value!);
        memo.set(url, { etag, body });
      }
      return { data: body };
    }
    return { error: apiErrorOf(response, body) };
  };
  try {
    return { result: await read(), appCheckRetried };
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', onAbort);
  }
}

/**
 * The one base query (spec §7–§8): waits for auth initialisation, sends the ID token and the
 * app-check token, refuses locally when signed out or unverified, refreshes the ID token once
 * on a 401 and retries, and toasts rate-limit messages.
 */
export const baseQuery: BaseQueryFn<string | RequestArgs, unknown, ApiError, ApiExtraOptions> = async (
  rawArgs,
  api,
  extraOptions,
) => {
  const deps = (api.extra as BaseQueryExtra).baseQuery;
  const args: RequestArgs = typeof rawArgs === 'string' ? { url: rawArgs } : rawArgs;
  const opts = extraOptions ?? {};
  const dispatch = api.dispatch as Dispatch;

  await deps.whenAuthReady();
  const auth = deps.selectAuth(api.getState());
  const sendWith = (token: string | null) =>
    send(deps, args, token ? { Authorization: `Bearer ${token}` } : {}, api.signal);
  let result: Result;
  if (opts.skipAuth) result = (await sendWith(null)).result;
  else {
    if (!auth.user) return clientError(401, NOT_AUTHENTICATED, 'UNAUTHENTICATED');
    if (!opts.skipVerified && !auth.user.emailVerified)
      return clientError(403, EMAIL_NOT_VERIFIED, 'EMAIL_NOT_VERIFIED');
    // The session rule both apps share (lib/session-manager.ts): renew a missing or stale token
    // first, and once on a 401 about it; a session found gone signs out here.
    const call = await callWithSession(
      {
        token: () => auth.idToken,
        renewFirst: () => !auth.idToken,
        renew: () => deps.refreshIdToken(dispatch),
        end: () => deps.signOut(dispatch),
      },
      async (token) => {
        const { result, appCheckRetried } = await sendWith(token);
        return { result, appCheckRetried, status: result.error?.status ?? 200 };
      },
    );
    if (call.kind === 'unavailable') return sessionUnavailable();
    if (call.kind === 'signed-out') return clientError(401, NOT_AUTHENTICATED, 'UNAUTHENTICATED');
    result = call.answer.result;
  }
  if (result.error?.status === 429 && !opts.showsRateLimit) deps.notifyError(result.error.data.error);
  return result;
};
