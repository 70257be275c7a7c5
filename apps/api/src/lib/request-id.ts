import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** A proxy's X-Request-Id when it looks like one (so its access log and ours share it), else a new one. */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
}
