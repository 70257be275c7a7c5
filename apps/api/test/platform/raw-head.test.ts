import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endWithHead, headPrefix, HeadTail, rawHeadSupported, takesRawHead } from '../../src/plugins/raw-head';

const LIST = ['cache-control', 'private, no-cache', 'vary', 'Accept-Encoding', 'etag', '"abc-br"'];
const BODY = Buffer.from('{"items":[]}');
const KEEP_ALIVE_MS = 72_000;

/**
 * The prebuilt head (decision 0072) against Node's own writeHead, byte for byte over a socket: the
 * same bytes for a 200 and a 304, keep-alive and pipelining as Node does them, and writeHead's way
 * whenever the connection is not a plain keep-alive one. This pins the Node internals raw-head.ts uses.
 */
describe('the prebuilt response head', () => {
  let port: number;
  let server: http.Server;
  const used: boolean[] = [];

  beforeAll(async () => {
    const tail = new HeadTail(KEEP_ALIVE_MS);
    server = http.createServer((req, res) => {
      const status = req.url!.startsWith('/304') ? 304 : 200;
      const body = status === 200 ? BODY : null;
      const list = [...LIST, ...(body ? ['content-length', String(body.length)] : [])];
      const raw = req.url!.endsWith('raw') && rawHeadSupported(res) && takesRawHead(req, res, KEEP_ALIVE_MS);
      if (req.url!.endsWith('raw')) used.push(raw);
      if (raw) return endWithHead(res, status, headPrefix(status, list) + 'id-1' + tail.now(), body);
      res.writeHead(status, [...list, 'x-request-id', 'id-1']);
      res.end(body ?? undefined);
    });
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Writes `requests` on one socket and returns what came back until it ended or went quiet. */
  const exchange = (requests: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let got = '';
      let quiet: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(quiet);
        socket.destroy();
        resolve(got.replace(/Date: [^\r]+/g, 'Date: (now)'));
      };
      socket.on('data', (chunk) => {
        got += chunk.toString('latin1');
        clearTimeout(quiet);
        quiet = setTimeout(done, 150);
      });
      socket.on('end', done);
      socket.on('error', reject);
      socket.write(requests);
    });
  const get = (path: string, extra = '', version = '1.1') => `GET ${path} HTTP/${version}\r\nHost: x${extra}\r\n\r\n`;

  it('writes exactly the bytes writeHead writes, for a 200 and a 304', async () => {
    for (const path of ['/200', '/304']) {
      used.length = 0;
      const [viaNode, viaRaw] = [await exchange(get(path)), await exchange(get(`${path}-raw`))];
      expect(used).toEqual([true]);
      expect(viaRaw).toBe(viaNode);
      expect(viaRaw).toContain('Connection: keep-alive\r\nKeep-Alive: timeout=72\r\n\r\n');
    }
  });

  it('keeps the connection open for pipelined requests, in order', async () => {
    used.length = 0;
    const answers = await exchange(get('/304-raw') + get('/200-raw'));
    expect(used).toEqual([true, true]);
    expect(answers.indexOf(' 304 ')).toBeLessThan(answers.indexOf(' 200 '));
    expect(answers.endsWith('{"items":[]}')).toBe(true);
  });

  it('leaves to writeHead a request that closes the connection, or an HTTP/1.0 one', async () => {
    used.length = 0;
    const close = await exchange(get('/200-raw', '\r\nConnection: close'));
    const old = await exchange(get('/200-raw', '', '1.0'));
    expect(used).toEqual([false, false]);
    expect(close).toContain('Connection: close');
    expect(old).toContain('Connection: close');
  });
});
