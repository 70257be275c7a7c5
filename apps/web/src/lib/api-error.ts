import { ERROR_CATALOGUE } from '@kringle/contracts/error-catalogue';

/** API.md's error body: what every refused call says, whichever app made it. */
export interface ApiErrorBody {
  error: string;
  code: string;
  details?: { path: string; message: string }[];
}

export type ApiErrorStatus = number | 'FETCH_ERROR' | 'TIMEOUT_ERROR' | 'PARSING_ERROR';

/**
 * The one error type of the web's request path (api-fetch.ts): every failure reaches a screen in
 * API.md's error-body shape, whatever went wrong. A plain object, as RTK Query keeps it in the store;
 * `ApiProblem` is the same thing thrown, for callers that await a promise (the staff app).
 */
export interface ApiError {
  status: ApiErrorStatus;
  data: ApiErrorBody;
  /** A 429's Retry-After header, in seconds, so a page can count the wait down. */
  retryAfterSeconds?: number;
}

/** The customer app's words for an answer that is not API.md's error body (a proxy's page, an empty 502). */
const defaultFallback = (status: number) => (status >= 500 ? ERROR_CATALOGUE.INTERNAL.text : 'Something went wrong');

/** A refused answer's parsed body as API.md's error body; `fallback` words one that is not. */
function apiErrorBody(status: number, body: unknown, fallback: string = defaultFallback(status)): ApiErrorBody {
  if (body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string') {
    const { error, code, details } = body as { error: string; code?: unknown; details?: ApiErrorBody['details'] };
    return { error, code: typeof code === 'string' ? code : `HTTP_${status}`, ...(details ? { details } : {}) };
  }
  return { error: fallback, code: `HTTP_${status}` };
}

/** A refused answer whose body has been parsed (null when it could not be). */
export function apiErrorOf(response: Response, body: unknown, fallback?: string): ApiError {
  const retryAfter = Number(response.headers.get('retry-after'));
  return {
    status: response.status,
    data: apiErrorBody(response.status, body, fallback),
    ...(retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
  };
}

/** Reads a refused answer's body into an ApiError; a body that is not JSON counts as none. */
export async function readApiError(response: Response, fallback?: string): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  return apiErrorOf(response, body, fallback);
}

/** An ApiError as a thrown error: `message` is the API's words, `code` and `details` its body's. */
export class ApiProblem extends Error implements ApiError {
  readonly status: ApiErrorStatus;
  readonly data: ApiErrorBody;
  readonly retryAfterSeconds?: number;
  readonly code: string;
  readonly details: NonNullable<ApiErrorBody['details']>;

  constructor(error: ApiError) {
    super(error.data.error);
    this.name = 'ApiProblem';
    this.status = error.status;
    this.data = error.data;
    if (error.retryAfterSeconds !== undefined) this.retryAfterSeconds = error.retryAfterSeconds;
    this.code = error.data.code;
    this.details = error.data.details ?? [];
  }
}
