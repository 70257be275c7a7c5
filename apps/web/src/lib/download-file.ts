import { createAsyncThunk } from '@reduxjs/toolkit';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import type { ApiError } from './api-error';
import { baseQuery } from './base-query';
import { saveBlob } from './save-blob';

export interface DownloadRequest {
  /** API path under /api/v1. */
  url: string;
  filename: string;
  /** What the file is, for the error toast ("the payment receipt"). */
  what: string;
}

/**
 * Receipts and calendar files need the ID token and the app-check token, so they go through
 * the app's base query (token refresh, app check, 429 toasts) rather than a plain link. The
 * Blob is saved here and never enters the store, which only holds serialisable data.
 */
export const downloadFile = createAsyncThunk<void, DownloadRequest, { rejectValue: ApiError }>(
  'download/file',
  async (request, thunkApi) => {
    const queryApi: BaseQueryApi = {
      signal: thunkApi.signal,
      abort: thunkApi.abort,
      dispatch: thunkApi.dispatch,
      getState: thunkApi.getState,
      extra: thunkApi.extra,
      endpoint: 'download',
      type: 'query',
    };
    const result = await baseQuery(
      { url: request.url, responseHandler: 'blob', headers: { Accept: '*/*' } },
      queryApi,
      {},
    );
    if (result.error) return thunkApi.rejectWithValue(result.error);
    const blob = result.data as Blob;
    if (!blob || blob.size === 0) {
      return thunkApi.rejectWithValue({
        status: 'PARSING_ERROR',
        data: { error: `We could not download ${request.what}. Please try again.`, code: 'EMPTY_FILE' },
      });
    }
    saveBlob(blob, request.filename);
  },
);
