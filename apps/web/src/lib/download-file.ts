import { createAsyncThunk } from '@reduxjs/toolkit';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { baseQuery, type ApiError } from './base-query';

export interface DownloadRequest {
  /** API path under /api/v1. */
  url: string;
  filename: string;
  /** What the file is, for the error toast ("the payment receipt"). */
  what: string;
}

/** Hands a Blob to the browser as a file (works on phones: the share or open sheet takes over). */
export function saveBlob(blob: Blob, filename: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = filename;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/**
 * Receipts and calendar files need the ID token and the app-check token, so they go through
 * the app's base query (token refresh, app check, 429 toasts) rather than a plain link. The
 * Blob is saved here and never enters the store, which only holds serialisable data.
 */
export const downloadFile = createAsyncThunk<void, DownloadRequest, { rejectValue: ApiError }>('download/file', async (request, thunkApi) => {
  const queryApi: BaseQueryApi = {
    signal: thunkApi.signal,
    abort: thunkApi.abort,
    dispatch: thunkApi.dispatch,
    getState: thunkApi.getState,
    extra: thunkApi.extra,
    endpoint: 'download',
    type: 'query',
  };
  const result = await baseQuery({ url: request.url, responseHandler: 'blob', headers: { Accept: '*/*' } }, queryApi, {});
  if (result.error) return thunkApi.rejectWithValue(result.error);
  const blob = result.data as Blob;
  if (!blob || blob.size === 0) {
    return thunkApi.rejectWithValue({ status: 'PARSING_ERROR', data: { error: `We could not download ${request.what}. Please try again.`, code: 'EMPTY_FILE' } });
  }
  saveBlob(blob, request.filename);
});
