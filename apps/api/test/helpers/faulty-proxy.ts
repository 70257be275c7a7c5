import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  /**
   * What the proxy did: passed it through, answered an error itself, or let it reach the target but answered late (or
   * never).
   */
  fault: 'none' | 'error' | 'late' | 'held';
}

interface Rule {
  kind: 'error' | 'late' | 'held';
  match: string;
  remaining: number;
  status: number;
  delayMs: number;
}

export interface FaultyProxy {
  readonly url: string;
  /** Every request so far, in arrival order. */
  readonly requests: ProxiedRequest[];
  /**
   * The next `count` requests starting with `match` (e.g. `POST /v1/refunds`) get `status` from the proxy and never
   * reach the target.
   */
  failNext(count: number, match?: string, status?: number): void;
  /**
   * The next `count` matching requests reach the target (its side effect happens) but their answer comes `delayMs`
   * late: past the client's timeout.
   */
  answerLate(count: number, delayMs: number, match?: string): void;
  /** The next matching request reaches the target; its answer waits until the returned release() is called. */
  holdNext(match?: string): { reached: Promise<void>; release(): void };
  /** Drops every rule: the proxy passes everything through again. */
  heal(): void;
  close(): Promise<void>;
}

/**
 * A fault-injecting HTTP proxy between the Stripe SDK and the Stripe sandbox: the sandbox stays
 * the real thing (its idempotency store, its side effects), only the network path misbehaves.
 */
export async function startFaultyProxy(target: string): Promise<FaultyProxy> {
  const to = new URL(target);
  const rules: Rule[] = [];
  const requests: ProxiedRequest[] = [];
  const holds: { match: string; reached: () => void; gate: Promise<void> }[] = [];

  const forward = (req: http.IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const out = http.request(
        {
          host: to.hostname,
          port: to.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: to.host },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const line = `${req.method} ${req.url}`;
        const key = req.headers['idempotency-key'];
        const entry: ProxiedRequest = {
          method: req.method!,
          path: req.url!,
          idempotencyKey: typeof key === 'string' ? key : null,
          fault: 'none',
        };
        requests.push(entry);
        const holdIndex = holds.findIndex((h) => line.startsWith(h.match));
        const rule = rules.find((r) => r.remaining > 0 && line.startsWith(r.match));
        if (holdIndex >= 0) {
          const [hold] = holds.splice(holdIndex, 1);
          entry.fault = 'held';
          const answer = await forward(req, Buffer.concat(chunks));
          hold!.reached();
          await hold!.gate;
          return send(res, answer.status, answer.headers, answer.body);
        }
        if (rule) {
          rule.remaining -= 1;
          entry.fault = rule.kind === 'error' ? 'error' : 'late';
          if (rule.kind === 'error') {
            return send(
              res,
              rule.status,
              { 'content-type': 'application/json' },
              Buffer.from(JSON.stringify({ error: { type: 'api_error', message: 'Injected fault' } })),
            );
          }
          const answer = await forward(req, Buffer.concat(chunks));
          await new Promise((r) => setTimeout(r, rule.delayMs));
          return send(res, answer.status, answer.headers, answer.body);
        }
        const answer = await forward(req, Buffer.concat(chunks));
        send(res, answer.status, answer.headers, answer.body);
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    failNext: (count, match = '', status = 500) =>
      void rules.push({ kind: 'error', match, remaining: count, status, delayMs: 0 }),
    answerLate: (count, delayMs, match = '') =>
      void rules.push({ kind: 'late', match, remaining: count, status: 0, delayMs }),
    holdNext(match = '') {
      let reached!: () => void;
      let release!: () => void;
      const reachedPromise = new Promise<void>((r) => (reached = r));
      const gate = new Promise<void>((r) => (release = r));
      holds.push({ match, reached, gate });
      return { reached: reachedPromise, release };
    },
    heal() {
      rules.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: http.ServerResponse, status: number, headers: http.IncomingHttpHeaders, body: Buffer): void {
  // The client may have given up (timed out) already: writing to a closed socket is fine to lose.
  if (res.destroyed || res.writableEnded) return;
  const { 'transfer-encoding': _te, connection: _c, 'content-length': _cl, ...rest } = headers;
  res.writeHead(status, { ...rest, 'content-length': String(body.length) });
  res.end(body);
}
