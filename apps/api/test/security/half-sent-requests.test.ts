import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * Issue 36, probe case 1: half-sent requests held sockets for 150 s, and 1,200 of them from one address made /ready
 * unanswerable.
 */

let t: TestApp;
let port: number;
const MAX = 5;

beforeAll(async () => {
  t = await createTestApp({
    HEADERS_TIMEOUT_MS: '1000',
    REQUEST_TIMEOUT_MS: '2000',
    MAX_CONNECTIONS_PER_ADDRESS: String(MAX),
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => t.close());

function connect(localAddress = '127.0.0.1'): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    socket.once('connect', () => resolve(socket)).once('error', reject);
  });
}

/** Resolves with how long the server took to close the socket and what it sent, or null after `within` ms. */
function closedWithin(socket: net.Socket, within: number): Promise<{ ms: number; received: string } | null> {
  const started = performance.now();
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), within);
    socket.once('close', () => (clearTimeout(timer), resolve({ ms: performance.now() - started, received })));
  });
}

async function health(localAddress: string): Promise<string> {
  const socket = await connect(localAddress);
  const closed = closedWithin(socket, 3000);
  socket.end('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  const result = await closed;
  if (!result) return 'still open';
  return result.received.split('\r\n')[0] || 'closed unanswered';
}

describe('half-sent requests time out', () => {
  it('a body that never completes: the socket is closed after REQUEST_TIMEOUT_MS', async () => {
    const socket = await connect();
    const closed = closedWithin(socket, 6000);
    socket.write(
      'POST /api/v1/auth/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ' +
        '60000\r\n\r\n{',
    );
    const result = await closed;
    socket.destroy();
    expect(result, 'still open after 6 s').not.toBeNull();
    expect(result!.ms).toBeLessThan(4500);
  });

  it('headers that never complete: the socket is closed after HEADERS_TIMEOUT_MS', async () => {
    const socket = await connect();
    const closed = closedWithin(socket, 6000);
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const result = await closed;
    socket.destroy();
    expect(result, 'still open after 6 s').not.toBeNull();
    expect(result!.ms).toBeLessThan(3500);
  });
});

describe('open sockets per address are capped', () => {
  it(
    'over MAX_CONNECTIONS_PER_ADDRESS a new socket is closed unanswered; other addresses and freed places still ' +
      'work',
    async () => {
      const held = await Promise.all(Array.from({ length: MAX }, () => connect()));
      expect(await health('127.0.0.1')).toBe('closed unanswered');
      expect(await health('127.0.0.2')).toBe('HTTP/1.1 200 OK');
      held.pop()!.destroy();
      await new Promise((r) => setTimeout(r, 50));
      expect(await health('127.0.0.1')).toBe('HTTP/1.1 200 OK');
      for (const s of held) s.destroy();
    },
  );
});
