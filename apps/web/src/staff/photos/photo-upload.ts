import { MAX_PHOTOS_PER_UPLOAD } from '@kringle/contracts/photos';
import { ApiProblem } from '../../lib/api-error';
import { xhrFetch } from '../../lib/xhr-fetch';
import { request } from '../session/staff-client';

/**
 * Bytes per request: the API keeps or drops a request's photos together (decision 0054), so a
 * dropped connection costs at most this much to send again, and the API holds less at once.
 */
export const MAX_BYTES_PER_UPLOAD = 300 * 1024 * 1024;

/** The files in shooting order, cut into requests of at most MAX_PHOTOS_PER_UPLOAD files and MAX_BYTES_PER_UPLOAD. */
export function batchesOf<T extends { size: number }>(
  files: T[],
  maxFiles = MAX_PHOTOS_PER_UPLOAD,
  maxBytes = MAX_BYTES_PER_UPLOAD,
): T[][] {
  const out: T[][] = [];
  let bytes = 0;
  for (const file of files) {
    const last = out.at(-1);
    if (!last || last.length >= maxFiles || bytes + file.size > maxBytes) {
      out.push([file]);
      bytes = file.size;
    } else {
      last.push(file);
      bytes += file.size;
    }
  }
  return out;
}

/**
 * How far each file of a request is, from the request's bytes sent: a multipart body carries its
 * files in order, so file i is done once the bytes before it and its own have gone.
 */
export function fileProgress(sizes: number[], sent: number, total: number): number[] {
  const payload = sizes.reduce((a, b) => a + b, 0);
  // The multipart headers and boundaries are spread evenly: they are a few hundred bytes a file.
  const done = total > 0 ? (sent / total) * payload : 0;
  let before = 0;
  return sizes.map((size) => {
    const fraction = size === 0 ? 1 : Math.min(1, Math.max(0, (done - before) / size));
    before += size;
    return fraction;
  });
}

/**
 * Worth sending again: no answer (a dropped connection), the server's trouble, too many requests, or
 * a 408 (the API's request timeout cut a slow upload off; it keeps none of a request's photos then).
 */
export const isRetryable = (e: unknown) =>
  e instanceof ApiProblem &&
  (e.status === 'FETCH_ERROR' ||
    e.status === 'TIMEOUT_ERROR' ||
    (typeof e.status === 'number' && (e.status >= 500 || e.status === 429 || e.status === 408)));

export const RETRY_DELAYS_MS = [2000, 5000];

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `send`, tried again after each of `delays` while it fails in a retryable way. */
export async function withRetries<T>(
  send: (attempt: number) => Promise<T>,
  delays = RETRY_DELAYS_MS,
  wait = pause,
  retryable = isRetryable,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send(attempt);
    } catch (e) {
      if (attempt >= delays.length || !retryable(e)) throw e;
      await wait(delays[attempt]!);
    }
  }
}

const timedOut = (e: unknown) => e instanceof ApiProblem && e.status === 408;

/**
 * `files` in one request, retried as withRetries does. A 408 on more than one file says the link is
 * slower than the request is large: the same request would time out again, so the files go as two
 * requests of half the size instead (each halved again if need be), in order. `send` records what
 * each request that went through kept: on a later failure, only the files not yet sent are left.
 */
export async function sendHalvingOnTimeout<F>(
  files: F[],
  send: (part: F[], attempt: number) => Promise<void>,
  delays = RETRY_DELAYS_MS,
  wait = pause,
): Promise<void> {
  const halvable = files.length > 1;
  try {
    await withRetries(
      (attempt) => send(files, attempt),
      delays,
      wait,
      halvable ? (e) => isRetryable(e) && !timedOut(e) : isRetryable,
    );
  } catch (e) {
    if (!halvable || !timedOut(e)) throw e;
    const mid = Math.ceil(files.length / 2);
    await sendHalvingOnTimeout(files.slice(0, mid), send, delays, wait);
    await sendHalvingOnTimeout(files.slice(mid), send, delays, wait);
  }
}

/** One multipart request of photos (fields named `files`), with its upload progress; the JSON answer. */
export async function postPhotos<T>(path: string, files: File[], onProgress: (perFile: number[]) => void): Promise<T> {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  const sizes = files.map((f) => f.size);
  const res = await request(path, {
    method: 'POST',
    body: form,
    fetchFn: xhrFetch((sent, total) => onProgress(fileProgress(sizes, sent, total))),
  });
  return (await res.json()) as T;
}
