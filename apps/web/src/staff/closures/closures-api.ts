import type { Closure, ClosureBody, ClosurePreview, ClosurePreviewBody } from '@kringle/contracts/closures';
import { downloadFile, postJson, requestJson } from '../session/staff-client';

/** The closures' calls (issue 35), over the staff app's one request path. */
export const previewClosure = (body: ClosurePreviewBody) => postJson<ClosurePreview>('/staff/closures/preview', body);
/** The key stays the same for one confirmed form: a retried click answers the same closure. */
export const startClosure = (body: ClosureBody, idempotencyKey: string) =>
  requestJson<{ id: string }>('/staff/closures', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'idempotency-key': idempotencyKey },
  });
export const getClosure = (id: string) => requestJson<Closure>(`/staff/closures/${id}`);
export const closureCsv = (id: string) => downloadFile(`/staff/closures/${id}.csv`, 'text/csv', 'closure.csv');
