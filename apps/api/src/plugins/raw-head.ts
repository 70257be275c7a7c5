import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * A response head written as one prebuilt string (decision 0072). `res.writeHead(status, list)`
 * validates every name and value and assembles the head again for each answer; the answer lane's
 * heads are the same every time but for the request id and the date, and their names and values
 * were validated by Node when the route first sent them. So the lane keeps the head as a string and
 * hands it to Node as `_header`, the field `writeHead` itself fills (node:_http_outgoing): Node's
 * parser, keep-alive, pipelining and `end()` stay Node's. Only a plain keep-alive answer is written
 * this way; anything else about the connection (close, a request limit, Expect) takes writeHead.
 */

/** The fields of Node's ServerResponse that writeHead sets and end() reads (Node 20 to 24). */
interface NodeResponse extends ServerResponse {
  _header: string | null;
  _headerSent: boolean;
  _hasBody: boolean;
  _keepAliveTimeout: number;
  _defaultKeepAlive: boolean;
  _maxRequestsPerSocket: number | undefined;
  maxRequestsOnConnectionReached: boolean;
}

/** Checked once per process: a Node whose ServerResponse lacks these fields always takes writeHead. */
export function rawHeadSupported(res: ServerResponse): boolean {
  const r = res as NodeResponse;
  return (
    r._header === null &&
    r._headerSent === false &&
    typeof r._hasBody === 'boolean' &&
    typeof r.shouldKeepAlive === 'boolean' &&
    typeof r._defaultKeepAlive === 'boolean'
  );
}

/** The status line and the given headers, up to the request id's value (the head's per-answer part). */
export function headPrefix(status: number, list: readonly string[]): string {
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'unknown'}\r\n`;
  for (let i = 0; i < list.length; i += 2) head += `${list[i]}: ${list[i + 1]}\r\n`;
  return `${head}x-request-id: `;
}

/** What Node adds after the route's headers to a keep-alive answer, with its date, remade once a second. */
export class HeadTail {
  private second = -1;
  private tail = '';

  constructor(readonly keepAliveTimeoutMs: number) {}

  now(): string {
    const ms = Date.now();
    const second = Math.floor(ms / 1000);
    if (second !== this.second) {
      this.second = second;
      const keepAlive = this.keepAliveTimeoutMs
        ? `Keep-Alive: timeout=${Math.floor(this.keepAliveTimeoutMs / 1000)}\r\n`
        : '';
      this.tail = `\r\nDate: ${new Date(second * 1000).toUTCString()}\r\nConnection: keep-alive\r\n${keepAlive}\r\n`;
    }
    return this.tail;
  }
}

/** Whether this answer may take the prebuilt head: a plain keep-alive answer, as Node would write it. */
export function takesRawHead(req: IncomingMessage, res: ServerResponse, keepAliveTimeoutMs: number): boolean {
  const r = res as NodeResponse;
  return (
    r.shouldKeepAlive &&
    r._defaultKeepAlive &&
    r.sendDate &&
    r._header === null &&
    r._keepAliveTimeout === keepAliveTimeoutMs &&
    !r._maxRequestsPerSocket &&
    !r.maxRequestsOnConnectionReached &&
    req.headers.expect === undefined
  );
}

/**
 * Each body as a latin1 string (one character per byte, so the bytes written are the same), made
 * once per body: Node joins a string body to the head and writes both in one system call, where a
 * Buffer takes its writev path (cached reads 32.2 → 29.7 µs of CPU, decision 0072).
 */
const latin1Bodies = new WeakMap<Buffer, string>();

function latin1Of(body: Buffer): string {
  let text = latin1Bodies.get(body);
  if (text === undefined) {
    text = body.toString('latin1');
    latin1Bodies.set(body, text);
  }
  return text;
}

/** Sends the answer with `head` (prefix, request id and tail) as writeHead and end would. */
export function endWithHead(res: ServerResponse, status: number, head: string, body: Buffer | null): void {
  const r = res as NodeResponse;
  r.statusCode = status;
  r.statusMessage = STATUS_CODES[status] ?? 'unknown';
  r._header = head;
  r._headerSent = false;
  if (body) return void r.end(latin1Of(body), 'latin1');
  r._hasBody = false;
  r.end();
}
