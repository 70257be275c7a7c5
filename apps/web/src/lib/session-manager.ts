import { ApiProblem, readApiError } from './api-error';
import { apiFetch, apiUrl, type ApiFetchDeps } from './api-fetch';
import { isAppCheckCode } from './app-check-retry';

/**
 * The one session manager of both web apps (decision 0092), over the one request path
 * (api-fetch.ts): how the refresh cookie is traded for an ID token, when a refresh counts as "the
 * session is gone" or only "not now" (decision 0040), the single flight, a sign-out winning over a
 * refresh still in flight, and the one refresh-and-retry of a call the API answered 401. What
 * stays each app's: where it keeps the token and the user (the customer's store, the staff
 * client's memory), whether tabs share the refresh (tab-sync.ts), and what it shows. No Redux
 * here: the staff bundle loads this file too.
 */

/** The ID token travels with the rest of the app's session (the user as that app reads it). */
export interface TokenSession {
  idToken: string;
}

/** Where the refresh runs: the customer app's tabs take turns and share what one obtained. */
export interface RefreshTurns<S> {
  withRefreshLock: <T>(refresh: () => Promise<T>) => Promise<T>;
  /** A session another tab published at or after `since` (ms), if any. */
  sessionFromOtherTabSince: (since: number) => S | null;
}

export interface SessionManagerOptions<S extends TokenSession> {
  access: ApiFetchDeps & { apiBaseUrl: string };
  /** The refresh answer's body as this app's session; null when it does not read (a version mismatch). */
  readSession: (body: unknown) => Promise<S | null>;
  /** Whether a token is this app's: the customer app refuses staff tokens, the staff app customers'. */
  isOwnToken: (idToken: string) => boolean;
  turns?: RefreshTurns<S>;
  /** The app's words for a refresh that could not be sent, and for an answer without API.md's body. */
  words: { unreachable: string; fallback?: string };
}

/**
 * One trade of the refresh cookie: `session` (this app's), `foreign` (the other app's: its token
 * kind), `gone` (the cookie itself refused), `unavailable` (offline, a 5xx, a 429, app check, an
 * answer that does not read: the session stands), or `signed-out` (a sign-out here came first).
 */
export type RefreshOutcome<S> =
  | { kind: 'session'; session: S }
  | { kind: 'foreign'; session: S }
  | { kind: 'gone' }
  | { kind: 'unavailable'; problem: ApiProblem }
  | { kind: 'signed-out' };

/** What a renewal does with the session it obtained: keep it, or refuse the other app's. */
export interface RenewHandlers<S> {
  keep: (session: S) => unknown;
  refuse: (session: S) => unknown;
}

export interface SessionManager<S extends TokenSession> {
  /** One trade of the cookie (the boot's restore), under the tabs' turn when the app has one. */
  trade: () => Promise<RefreshOutcome<S>>;
  /**
   * A fresh ID token, or null when the session is gone (refused, the other app's, signed out
   * meanwhile). Throws the problem when none could be had just now: the session stands. Single
   * flight: parallel callers share one rotation of the cookie (and the first caller's handlers).
   */
  renew: (handlers: RenewHandlers<S>) => Promise<string | null>;
  /**
   * The one sign-out: a refresh in flight is forgotten and its answer dropped, then the server is
   * told when `callServer` (the family or the member asked; not for a session the server already
   * refused or that another tab ended). The app then clears what it keeps.
   */
  signOut: (options?: { callServer?: boolean }) => Promise<void>;
}

export function createSessionManager<S extends TokenSession>(options: SessionManagerOptions<S>): SessionManager<S> {
  const { access, words } = options;
  let signOuts = 0;
  let inFlight: Promise<string | null> | null = null;

  const post = async (path: string) =>
    (await apiFetch(access, apiUrl(access.apiBaseUrl, path), { method: 'POST' })).response;
  const unreadable = () =>
    new ApiProblem({
      status: 'PARSING_ERROR',
      data: { error: words.fallback ?? words.unreachable, code: 'PARSING_ERROR' },
    });

  async function tradeOnce(): Promise<RefreshOutcome<S>> {
    let response: Response;
    try {
      response = await post('/auth/refresh');
    } catch {
      const problem = new ApiProblem({
        status: 'FETCH_ERROR',
        data: { error: words.unreachable, code: 'FETCH_ERROR' },
      });
      return { kind: 'unavailable', problem };
    }
    if (!response.ok) {
      const problem = new ApiProblem(await readApiError(response, words.fallback));
      // Only a 401 about the session itself means the cookie is gone; app check is about the device.
      return response.status === 401 && !isAppCheckCode(problem.code)
        ? { kind: 'gone' }
        : { kind: 'unavailable', problem };
    }
    const session = await response
      .json()
      .then((body: unknown) => options.readSession(body))
      .catch(() => null);
    if (!session) return { kind: 'unavailable', problem: unreadable() };
    return { kind: options.isOwnToken(session.idToken) ? 'session' : 'foreign', session };
  }

  async function trade(): Promise<RefreshOutcome<S>> {
    const askedAt = Date.now();
    const signOutsBefore = signOuts;
    const run = async (): Promise<RefreshOutcome<S>> => {
      const fromOtherTab = options.turns?.sessionFromOtherTabSince(askedAt);
      if (fromOtherTab)
        return { kind: options.isOwnToken(fromOtherTab.idToken) ? 'session' : 'foreign', session: fromOtherTab };
      return tradeOnce();
    };
    const outcome = await (options.turns ? options.turns.withRefreshLock(run) : run());
    // Callers act on the outcome without awaiting anything else first, so no sign-out comes between.
    return signOuts === signOutsBefore ? outcome : { kind: 'signed-out' };
  }

  function renew(handlers: RenewHandlers<S>): Promise<string | null> {
    if (inFlight) return inFlight;
    const flight = (async () => {
      const outcome = await trade();
      switch (outcome.kind) {
        case 'session':
          await handlers.keep(outcome.session);
          return outcome.session.idToken;
        case 'foreign':
          await handlers.refuse(outcome.session);
          return null;
        case 'unavailable':
          throw outcome.problem;
        default:
          return null;
      }
    })().finally(() => {
      if (inFlight === flight) inFlight = null;
    });
    inFlight = flight;
    return flight;
  }

  async function signOut({ callServer = true }: { callServer?: boolean } = {}): Promise<void> {
    signOuts++;
    inFlight = null; // a refresh from before the sign-out is not one a later call may join
    if (callServer) await post('/auth/sign-out').catch(() => undefined);
  }

  return { trade, renew, signOut };
}

/** How a call ended under the session rule. `answer` is the API's last answer, when there was one. */
export type SessionCall<R> =
  | { kind: 'answered'; answer: R }
  | { kind: 'signed-out'; answer: R | null }
  | { kind: 'unavailable'; problem: unknown };

/** What the rule needs of the app's session: its token, a renewal, the end here. */
export interface CallSession {
  /** The ID token to send (the staff app may have none: the API's 401 then starts the renewal). */
  token: () => string | null;
  /** The app's own freshness rule: the customer app renews a missing or soon-expiring token first. */
  renewFirst: () => boolean;
  renew: () => Promise<string | null>;
  end: () => Promise<void>;
}

/**
 * The session rule for one call, both apps: renew first when the app says so; a 401 about the ID
 * token (not an answer that is already app check's second try, api-fetch.ts) renews it and sends
 * once more. A renewal that finds the session gone ends it here; one that cannot be had now leaves
 * the session standing and the call unanswered.
 */
export async function callWithSession<R extends { status: number | string; appCheckRetried: boolean }>(
  session: CallSession,
  send: (idToken: string | null) => Promise<R>,
): Promise<SessionCall<R>> {
  const renewed = async (answer: R | null): Promise<string | SessionCall<R>> => {
    let token: string | null;
    try {
      token = await session.renew();
    } catch (problem) {
      return { kind: 'unavailable', problem };
    }
    if (token) return token;
    await session.end();
    return { kind: 'signed-out', answer };
  };
  let token = session.token();
  if (session.renewFirst()) {
    const got = await renewed(null);
    if (typeof got !== 'string') return got;
    token = got;
  }
  const first = await send(token);
  if (first.status !== 401 || first.appCheckRetried) return { kind: 'answered', answer: first };
  const fresh = await renewed(first);
  if (typeof fresh !== 'string') return fresh;
  return { kind: 'answered', answer: await send(fresh) };
}
