import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApiProcesses, type ApiProcesses } from '../helpers/api-processes';
import { createProcessesDatabase, type ProcessesDatabase } from '../helpers/processes-database';

/**
 * A SIGTERM behind nginx (decision 0093), on the production entry point. The proxy keeps idle
 * keep-alive sockets to the process; before the drain, Fastify's close destroyed them at once,
 * and a POST written on one that instant was reset (nginx answers 502 and never replays a POST).
 * Now the socket stays up for SHUTDOWN_DRAIN_MS: the POST is answered with `Connection: close`,
 * /ready answers 503, no new connection is taken, and the idle sockets left are closed at the end.
 * The build on plain Node, as production runs it.
 */
const DRAIN_MS = 3_000;
const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUILD = 'dist/drain-test';

let database: ProcessesDatabase;
let api: ApiProcesses | null = null;
const startApi = async () =>
  (api = await startApiProcesses(
    1,
    { ...database.env, SHUTDOWN_DRAIN_MS: String(DRAIN_MS) },
    { entry: `${BUILD}/start.mjs` },
  ));

beforeAll(async () => {
  execFileSync(process.execPath, ['build.mjs', `${BUILD}/start.mjs`], { cwd: API_DIR });
  database = await createProcessesDatabase();
}, 120_000);

afterAll(async () => {
  await api?.stop();
  await database?.close();
  fs.rmSync(path.join(API_DIR, BUILD), { recursive: true, force: true });
}, 60_000);

it('answers a POST sent on an idle keep-alive socket after SIGTERM, closes it after, exits when drained', async () => {
  const api = await startApi();
  const { port } = new URL(api.urls[0]!);
  const posting = await KeepAlive.open(Number(port));
  const probing = await KeepAlive.open(Number(port));
  const idle = await KeepAlive.open(Number(port));
  for (const socket of [posting, probing, idle]) {
    const answer = await socket.send('GET /api/v1/health HTTP/1.1\r\nHost: api\r\n\r\n');
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe('keep-alive');
  }

  const signalledAt = Date.now();
  const stopped = api.stop().then(() => Date.now());
  // The signal has reached the process once it no longer takes a connection.
  while (await connects(Number(port))) await new Promise((r) => setTimeout(r, 20));

  const body = JSON.stringify({ email: 'nobody@kringle.test', password: 'Not-the-password-1' });
  const signIn = await posting.send(
    'POST /api/v1/auth/sign-in HTTP/1.1\r\nHost: api\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  expect(signIn.status, signIn.body).toBe(401);
  expect(JSON.parse(signIn.body)).toMatchObject({ code: 'INVALID_CREDENTIALS' });
  expect(signIn.headers.connection).toBe('close');
  await posting.closed;

  const ready = await probing.send('GET /api/v1/ready HTTP/1.1\r\nHost: api\r\n\r\n');
  expect(ready.status).toBe(503);
  expect(ready.headers.connection).toBe('close');
  await probing.closed;

  // The idle socket (one nginx stopped using) is kept through the drain, then closed, and the process goes.
  await idle.closed;
  const idleClosedAt = Date.now();
  expect(idleClosedAt - signalledAt).toBeGreaterThanOrEqual(DRAIN_MS - 500);
  expect((await stopped) - signalledAt).toBeLessThan(DRAIN_MS + 5_000);
}, 60_000);

it('exits at once on a second signal during the drain', async () => {
  const api = await startApi();
  const { port } = new URL(api.urls[0]!);
  const idle = await KeepAlive.open(Number(port));
  expect((await idle.send('GET /api/v1/health HTTP/1.1\r\nHost: api\r\n\r\n')).status).toBe(200);
  const signalledAt = Date.now();
  const stopped = api.stop().then(() => Date.now());
  while (await connects(Number(port))) await new Promise((r) => setTimeout(r, 20));
  // Draining now (it holds the idle socket for DRAIN_MS): Ctrl-C ends it.
  api.signal(0, 'SIGINT');
  await idle.closed;
  expect((await stopped) - signalledAt).toBeLessThan(DRAIN_MS - 1_000);
}, 60_000);

const connects = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One HTTP/1.1 connection held open, as nginx's upstream keep-alive holds one: a request at a time. */
class KeepAlive {
  private buffer = '';
  private waiting: (() => void) | null = null;
  private ended = false;
  readonly closed: Promise<void>;

  private constructor(private readonly socket: net.Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      this.waiting?.();
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.ended = true;
        this.waiting?.();
        resolve();
      }),
    );
    socket.on('error', () => {}); // a reset shows as a close before the answer
  }

  static open(port: number): Promise<KeepAlive> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new KeepAlive(socket)));
      socket.once('error', reject);
    });
  }

  async send(request: string): Promise<RawAnswer> {
    this.socket.write(request);
    for (;;) {
      const answer = this.take();
      if (answer) return answer;
      if (this.ended) throw new Error(`the connection closed before an answer (${JSON.stringify(this.buffer)})`);
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  /** A whole answer from the buffer (every answer here has a Content-Length), or null. */
  private take(): RawAnswer | null {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const [statusLine, ...lines] = this.buffer.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0);
    if (this.buffer.length < end + 4 + length) return null;
    const body = this.buffer.slice(end + 4, end + 4 + length);
    this.buffer = this.buffer.slice(end + 4 + length);
    return { status: Number(statusLine!.split(' ')[1]), headers, body };
  }
}
