import { appCheckBackoffMs } from './app-check-backoff';

/** Spec §8 app-check failure kinds. */
export type AppCheckErrorKind = 'recaptcha-error' | 'throttled' | 'initial-throttle';

export class AppCheckError extends Error {
  readonly kind: AppCheckErrorKind;
  /** Milliseconds until the next exchange may be tried (throttle kinds). */
  readonly waitMs: number | undefined;
  /** HTTP status of the failure that started the throttle (0 for a network failure). */
  readonly httpStatus: number | undefined;

  constructor(kind: AppCheckErrorKind, message: string, waitMs?: number, httpStatus?: number) {
    super(message);
    this.name = 'AppCheckError';
    this.kind = kind;
    this.waitMs = waitMs;
    this.httpStatus = httpStatus;
  }
}

/** The challenge API.md's /app-check/challenge answers (ALTCHA v1 shape). */
export interface AppCheckChallenge {
  algorithm: string;
  challenge: string;
  salt: string;
  signature: string;
  maxnumber?: number;
}

export interface AppCheckClientOptions {
  baseUrl: string;
  /** Solves a challenge and returns the base64 ALTCHA payload (a Web Worker in the browser). */
  solve: (challenge: AppCheckChallenge) => Promise<string>;
  fetchFn?: typeof fetch;
  now?: () => number;
  /** Refresh this long before expiresAt so a token never expires mid-request. */
  refreshMarginMs?: number;
  onError?: (error: AppCheckError) => void;
  /** Keeps the token across page loads (sessionStorage in the app), as Firebase keeps its own. */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
}

const STORAGE_KEY = 'kringle.appCheck';

export interface AppCheckClient {
  getToken(): Promise<string>;
  /** Drops the cached token, e.g. after the API said it was invalid. */
  invalidate(): void;
}

interface Throttle {
  allowAfter: number;
  httpStatus: number;
  failures: number;
}

export function createAppCheckClient(options: AppCheckClientOptions): AppCheckClient {
  const fetchFn = options.fetchFn ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const now = options.now ?? Date.now;
  const margin = options.refreshMarginMs ?? 5 * 60 * 1000;
  let cached: { token: string; expiresAt: number } | null = null;
  try {
    const stored = JSON.parse(options.storage?.getItem(STORAGE_KEY) ?? 'null') as {
      token?: unknown;
      expiresAt?: unknown;
    } | null;
    if (stored && typeof stored.token === 'string' && typeof stored.expiresAt === 'number')
      cached = { token: stored.token, expiresAt: stored.expiresAt };
  } catch {
    cached = null;
  }
  let throttle: Throttle | null = null;
  let failures = 0;
  let inFlight: Promise<string> | null = null;

  const fail = (error: AppCheckError): never => {
    options.onError?.(error);
    throw error;
  };

  const startThrottle = (httpStatus: number): never => {
    const waitMs = appCheckBackoffMs(httpStatus, failures);
    failures += 1;
    throttle = { allowAfter: now() + waitMs, httpStatus, failures };
    return fail(
      new AppCheckError(
        'initial-throttle',
        `App check failed (HTTP ${httpStatus}); retrying in ${waitMs} ms`,
        waitMs,
        httpStatus,
      ),
    );
  };

  const post = async (path: string, body?: unknown): Promise<Response> => {
    try {
      return await fetchFn(`${options.baseUrl}${path}`, {
        method: 'POST',
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
      });
    } catch {
      return startThrottle(0);
    }
  };

  const obtain = async (): Promise<string> => {
    const challengeRes = await post('/app-check/challenge');
    if (!challengeRes.ok) return startThrottle(challengeRes.status);
    let payload: string;
    try {
      payload = await options.solve((await challengeRes.json()) as AppCheckChallenge);
    } catch (err) {
      return fail(new AppCheckError('recaptcha-error', `Could not solve the app-check challenge: ${String(err)}`));
    }
    const exchangeRes = await post('/app-check/exchange', { payload });
    if (!exchangeRes.ok) return startThrottle(exchangeRes.status);
    const body = (await exchangeRes.json()) as { token: string; expiresAt: string };
    failures = 0;
    throttle = null;
    cached = { token: body.token, expiresAt: Date.parse(body.expiresAt) };
    try {
      options.storage?.setItem(STORAGE_KEY, JSON.stringify(cached));
    } catch {
      // storage full or blocked: the in-memory copy is enough
    }
    return body.token;
  };

  return {
    async getToken() {
      if (cached && now() < cached.expiresAt - margin) return cached.token;
      if (throttle && now() < throttle.allowAfter) {
        const waitMs = throttle.allowAfter - now();
        return fail(
          new AppCheckError('throttled', `App check is throttled for ${waitMs} ms`, waitMs, throttle.httpStatus),
        );
      }
      inFlight ??= obtain().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
    invalidate() {
      cached = null;
      try {
        options.storage?.removeItem(STORAGE_KEY);
      } catch {
        // ignore
      }
    },
  };
}
