import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** Issue 48 item 11: a DNS-rebinding page reaches 127.0.0.1 from the developer's browser, with its own Host. */

/** One HTTP/1.1 request written by hand, so the Host header is exactly what a browser would send. */
async function rawGet(port: number, path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    });
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
    });
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)));
    socket.on('error', reject);
  });
}

describe('the dev mailbox answers only a Host naming this machine', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => t.close());

  for (const path of ['/dev/mailbox', '/api/v1/dev/outbox']) {
    it(`${path}: localhost, 127.0.0.1 and [::1] with any port answer; any other name is a 404`, async () => {
      for (const host of [
        'localhost',
        'localhost:5173',
        'LOCALHOST:3000',
        '127.0.0.1',
        `127.0.0.1:${port}`,
        '[::1]',
        '[::1]:8080',
      ]) {
        expect(await rawGet(port, path, host), host).toBe(200);
      }
      for (const host of [
        'evil.example',
        `evil.example:${port}`,
        'localhost.evil.example',
        '127.0.0.1.nip.io',
        'localhost:80@evil.example',
        '0.0.0.0',
        '[::ffff:127.0.0.1]',
        '127.0.0.2',
      ]) {
        expect(await rawGet(port, path, host), host).toBe(404);
      }
    });
  }

  it('a forwarded host from a proxy on this machine must name it too', async () => {
    const via = (forwarded: string) =>
      t.app.inject({
        url: '/api/v1/dev/outbox',
        remoteAddress: '127.0.0.1',
        headers: { host: 'localhost:3000', 'x-forwarded-host': forwarded },
      });
    expect((await via('localhost:5173')).statusCode).toBe(200);
    const away = await via('evil.example');
    expect(away.statusCode).toBe(404);
    expect(away.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
