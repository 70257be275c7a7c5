import type { ApiError } from '../../lib/api-error';

/** Narrows an RTK Query mutation error to the API.md error body the base query always produces. */
export function asApiError(error: unknown): ApiError | null {
  if (error && typeof error === 'object' && 'status' in error && 'data' in error) {
    const data = (error as ApiError).data;
    if (data && typeof data.error === 'string') return error as ApiError;
  }
  return null;
}

export const errorCode = (error: unknown): string | null => asApiError(error)?.data.code ?? null;

/** The server's customer-readable message, or `fallback` (never a developer's exception text). */
export function errorMessage(error: unknown, fallback = 'Something went wrong'): string {
  return asApiError(error)?.data.error ?? fallback;
}

/** Field messages from a 400 VALIDATION_FAILED / WEAK_PASSWORD body, keyed by the last path part. */
export function fieldErrors(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const detail of asApiError(error)?.data.details ?? []) {
    const field = detail.path.split('.').pop();
    if (field && !out[field]) out[field] = detail.message;
  }
  return out;
}
