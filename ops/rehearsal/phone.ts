import http from 'node:http';

/** One try of a request: its answer, or the network error a phone would see. */
export interface Attempt {
  start: number;
  end: number;
  status: number | null;
  error: string | null;
}

/** What the family asked for once (its tries, and the answer it ended with). */
export interface Operation {
  kind: string;
  family: number;
  attempts: Attempt[];
  final: { status: number; body: string } | null;
}

export interface Answer {
  status: number;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

/** No answer in this long is a hang (nginx itself gives up on the API after 30 s with a 504). */
const ATTEMPT_TIMEOUT_MS = 35_000;
/** A phone retries a lost answer for up to this long, then the family sees an error. */
const RETRY_FOR_MS = 60_000;
const RETRYABLE = new Set([502, 503, 504]);

/**
 * A family's phone: HTTP from its own address, keep-alive like a browser, and the web app's
 * retry of a request whose answer was lost (a 502, 503 or 504 from the proxy, or a dropped
 * connection): the same request again, so a hold retried answers the same hold (200) and a
 * checkout the same checkout (idempotent per cart). Every try is recorded.
 */
export class Phone {
  private readonly agent: http.Agent;
  constructor(
    readonly family: number,
    localAddress: string,
    private readonly log: Operation[],
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 4, localAddress });
  }

  private once(url: string, method: string, headers: Record<string, string>, body?: string) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(url, { method, headers, agent: this.agent, timeout: ATTEMPT_TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('latin1') }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`no answer in ${ATTEMPT_TIMEOUT_MS / 1000} s`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  async request(
    kind: string,
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    payload?: object | string,
  ): Promise<Answer> {
    const op: Operation = { kind, family: this.family, attempts: [], final: null };
    this.log.push(op);
    const body = payload === undefined ? undefined : typeof payload === 'string' ? payload : JSON.stringify(payload);
    const contentType: Record<string, string> =
      payload === undefined
        ? {}
        : { 'content-type': typeof payload === 'string' ? 'application/x-www-form-urlencoded' : 'application/json' };
    const first = Date.now();
    for (;;) {
      const attempt: Attempt = { start: Date.now(), end: 0, status: null, error: null };
      op.attempts.push(attempt);
      try {
        const res = await this.once(url, method, { ...headers, ...contentType }, body);
        attempt.end = Date.now();
        attempt.status = res.status;
        if (!RETRYABLE.has(res.status)) {
          op.final = res;
          return { ...res, json: <T>() => JSON.parse(Buffer.from(res.body, 'latin1').toString('utf8')) as T };
        }
      } catch (err) {
        attempt.end = Date.now();
        attempt.error = (err as Error).message;
      }
      if (Date.now() - first > RETRY_FOR_MS) throw new Error(`${kind}: no answer after ${op.attempts.length} tries`);
      await new Promise((r) => setTimeout(r, 200 + Math.random() * 300));
    }
  }

  close(): void {
    this.agent.destroy();
  }
}
