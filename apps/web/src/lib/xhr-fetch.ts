/**
 * A `fetch` over XMLHttpRequest that reports upload progress (fetch cannot), for the staff app's
 * photo uploads: it plugs into lib/api-fetch.ts as its fetchFn, so the app-check token, its
 * retry rule and the session refresh stay the one request path's. It rejects as fetch does
 * when the request never got an answer (offline, aborted).
 */
export function xhrFetch(onProgress: (sent: number, total: number) => void): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(init.method ?? 'GET', String(input));
      xhr.withCredentials = init.credentials === 'include';
      xhr.responseType = 'blob';
      for (const [name, value] of new Headers(init.headers).entries()) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) onProgress(e.loaded, e.total);
      };
      xhr.onload = () => {
        const headers = new Headers();
        for (const line of xhr
          .getAllResponseHeaders()
          .trim()
          .split(/[\r\n]+/)) {
          const at = line.indexOf(':');
          if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
        }
        resolve(new Response(xhr.response as Blob, { status: xhr.status, statusText: xhr.statusText, headers }));
      };
      xhr.onerror = () => reject(new TypeError('Network request failed'));
      xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
      init.signal?.addEventListener('abort', () => xhr.abort());
      xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null);
    });
}
