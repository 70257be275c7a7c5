import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { appCheckToken } from '../helpers/app-check';
import { createCustomer } from '../helpers/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';

const NOW = new Date('2026-12-01T00:00:00Z');

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Headers that differ between any two answers (Node's own, and a new id when none was sent). */
const OWN = ['date', 'connection', 'keep-alive', 'x-request-id', 'transfer-encoding'];
const comparable = (a: Answer, keepId: boolean) => ({
  ...a,
  headers: Object.fromEntries(
    Object.entries(a.headers).filter(([k]) => !OWN.includes(k) || (keepId && k === 'x-request-id')),
  ),
});

/**
 * The answer lane (decision 0035): over real HTTP, a read the lane takes answers exactly what
 * Fastify (app.inject, which never passes the lane) answers to the same request; a read any hook
 * would decide otherwise, or with no fresh answer, goes to Fastify.
 */
describe('the answer lane', () => {
  let t: TestApp;
  let clock: ManualClock;
  let base: string;
  let family: Record<string, string>;
  let slotsUrl: string;
  let datesUrl: string;
  let locationId: string;

  /** A real request through the server (and so the lane), with exactly these headers. */
  const overHttp = (url: string, headers: Record<string, string>, method = 'GET') =>
    new Promise<Answer>((resolve, reject) => {
      const req = http.request(base + url, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers as Record<string, string>,
            body: Buffer.concat(chunks).toString('latin1'),
          }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  const fastify = async (
    url: string,
    headers: Record<string, string>,
    method: 'GET' | 'HEAD' = 'GET',
  ): Promise<Answer> => {
    const res = await t.app.inject({ method, url, headers });
    return {
      status: res.statusCode,
      headers: res.headers as Record<string, string>,
      body: res.rawPayload.toString('latin1'),
    };
  };
  /** Over HTTP, and whether the lane answered it. */
  const read = async (url: string, headers: Record<string, string>, method = 'GET') => {
    const before = t.app.answerLane.served;
    const answer = await overHttp(url, headers, method);
    return { answer, byLane: t.app.answerLane.served > before };
  };

  beforeAll(async () => {
    clock = new ManualClock(NOW);
    t = await createTestApp({ APP_CHECK_MODE: 'enforce', AVAILABILITY_CACHE_MS: '1000' }, clock);
    await loadSeason(t.db, demoSeason(NOW), NOW);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    family = { ...(await createCustomer(t.db, t.app.idTokens)).headers, 'x-app-check': await appCheckToken(t.app) };
    const loc = (await fastify('/api/v1/common/locations', family)).body;
    const location = JSON.parse(loc).items[0];
    locationId = location.id;
    slotsUrl =
      `/api/v1/booking-slot/${locationId}/available-slots?date=2026-12-03&slotTypeId=` + `${location.slotTypes[0].id}`;
    datesUrl =
      `/api/v1/booking-slot/${locationId}/available-dates?slotTypeId=` +
      `${location.slotTypes[0].id}&from=2026-12-03&to=2026-12-05`;
  });
  afterAll(async () => t.close());

  it('answers a URL the route has answered exactly as the route does, 200 and 304, in every coding', async () => {
    for (const url of [slotsUrl, datesUrl]) {
      const first = await read(url, family);
      expect(first.byLane).toBe(false);
      const etag = first.answer.headers.etag!;
      const cases: [Record<string, string>, number][] = [
        [{}, 200],
        [{ 'accept-encoding': 'gzip' }, 200],
        [{ 'accept-encoding': 'gzip, deflate, br' }, 200],
        [{ 'if-none-match': etag }, 304],
        [{ 'if-none-match': `W/${etag}`, 'accept-encoding': 'br' }, 304],
        [{ 'if-none-match': '"stale"' }, 200],
        [{ 'x-request-id': 'proxy-given-id-1234' }, 200],
      ];
      for (const [extra, status] of cases) {
        const headers = { ...family, ...extra };
        const lane = await read(url, headers);
        expect(lane.byLane, JSON.stringify(extra)).toBe(true);
        expect(lane.answer.status).toBe(status);
        expect(comparable(lane.answer, 'x-request-id' in extra)).toEqual(
          comparable(await fastify(url, headers), 'x-request-id' in extra),
        );
        // A 304 updates what the browser stored: no headers that only govern a body (BODY_ONLY_HEADERS).
        expect(lane.answer.headers['content-security-policy'] !== undefined, JSON.stringify(extra)).toBe(
          status === 200,
        );
        expect(lane.answer.headers).toMatchObject({
          'cache-control': 'private, no-cache',
          vary: expect.stringContaining('Accept-Encoding'),
        });
      }
      // The header list is built once per answer and only its id is written per request (issue 41):
      // a proxy's id never carries over to the next answer, and two answers never share one.
      const ids = [];
      for (const extra of [{ 'x-request-id': 'proxy-given-id-5678' }, {}, {}] as Record<string, string>[]) {
        const lane = await read(url, { ...family, ...extra });
        expect(lane.byLane).toBe(true);
        ids.push(lane.answer.headers['x-request-id']);
      }
      expect(ids[0]).toBe('proxy-given-id-5678');
      expect(new Set(ids).size).toBe(3);
      // A client closing the connection gets Node's own head (writeHead), not the prebuilt one (decision 0072).
      const closing = await read(url, { ...family, connection: 'close' });
      expect(closing.byLane).toBe(true);
      expect(closing.answer.headers.connection).toBe('close');
      expect(comparable(closing.answer, false)).toEqual(comparable(await fastify(url, family), false));
    }
  });

  it('leaves to Fastify every read a hook would answer otherwise', async () => {
    await read(slotsUrl, family);
    const staff = {
      ...(await createCustomer(t.db, t.app.idTokens, { staff: true })).headers,
      'x-app-check': family['x-app-check']!,
    };
    const unverifiedToken = {
      ...(await createCustomer(t.db, t.app.idTokens, { verified: false })).headers,
      'x-app-check': family['x-app-check']!,
    };
    const cases: [string, Record<string, string>, number][] = [
      ['no token', { 'x-app-check': family['x-app-check']! }, 401],
      ['a token never verified', { ...family, authorization: `${family.authorization!.slice(0, -4)}AAAA` }, 401],
      ['staff', staff, 403],
      ['a token that says unverified', unverifiedToken, 403],
      ['no app check', { authorization: family.authorization! }, 401],
      ['an app check never verified', { ...family, 'x-app-check': 'e30.e30.e30' }, 401],
      ['an Origin (CORS answers it)', { ...family, origin: 'http://localhost:5173' }, 200],
      // The lane knows only "Bearer " and a token verified before; other spellings are the hook's.
      [
        '"bearer" in lower case',
        { ...family, authorization: family.authorization!.replace('Bearer ', 'bearer ') },
        200,
      ],
      [
        'two spaces after Bearer',
        { ...family, authorization: family.authorization!.replace('Bearer ', 'Bearer  ') },
        401,
      ],
    ];
    for (const [what, headers, status] of cases) {
      const lane = await read(slotsUrl, headers);
      expect(lane.byLane, what).toBe(false);
      expect(lane.answer.status, what).toBe(status);
      expect(comparable(lane.answer, false), what).toEqual(comparable(await fastify(slotsUrl, headers), false));
    }
    expect((await read(slotsUrl, family, 'HEAD')).byLane).toBe(false);
    // The same query in another order is another URL: the route validates it first.
    const reordered = slotsUrl.replace(/\?(date=[^&]+)&(slotTypeId=[^&]+)/, '?$2&$1');
    expect((await read(reordered, family)).byLane).toBe(false);
    expect((await read(reordered, family)).byLane).toBe(true);
  });

  it('sees no header the security hook would refuse: Node refuses a NUL, and a surrogate cannot be sent', async () => {
    await read(slotsUrl, family);
    expect(t.app.answerLane.strictParser).toBe(true);
    /** The request's bytes as written, so a NUL reaches Node's parser as it would from any client. */
    const rawRequest = (extra: Buffer) =>
      new Promise<string>((resolve, reject) => {
        const head = Object.entries(family)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('');
        const socket = net.connect((t.app.server.address() as AddressInfo).port, '127.0.0.1');
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
        socket.on('error', reject);
        socket.end(
          Buffer.concat([
            Buffer.from(`GET ${slotsUrl} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n${head}x-note: a`),
            extra,
            Buffer.from('b\r\n\r\n'),
          ]),
        );
      });
    const before = t.app.answerLane.served;
    expect(await rawRequest(Buffer.from([0]))).toMatch(/^HTTP\/1\.1 400 /);
    expect(t.app.answerLane.served).toBe(before);
    // A surrogate's UTF-8 bytes arrive as three latin1 characters, which the hook stores as well.
    const surrogateBytes = Buffer.from([0xed, 0xa0, 0x80]);
    expect(await rawRequest(surrogateBytes)).toMatch(/^HTTP\/1\.1 200 /);
    expect(t.app.answerLane.served).toBe(before + 1);
    const viaFastify = await fastify(slotsUrl, { ...family, 'x-note': `a${surrogateBytes.toString('latin1')}b` });
    expect(viaFastify.status).toBe(200);
  });

  it('never serves an answer the cache dropped, and lets the route begin a due refresh', async () => {
    const before = (await read(slotsUrl, family)).answer;
    expect((await read(slotsUrl, family)).byLane).toBe(true);
    // A hold taken or released: this location's answers are forgotten, so the route answers.
    t.app.slotState.changed({ locationId });
    expect((await read(slotsUrl, family)).byLane).toBe(false);
    expect((await read(slotsUrl, family)).byLane).toBe(true);
    // Three quarters into its life a refresh is due: one read goes to the route, which begins it.
    clock.advance(800);
    expect((await read(slotsUrl, family)).byLane).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refreshed = await read(slotsUrl, family);
    expect(refreshed.byLane).toBe(true);
    expect(refreshed.answer.body).toBe(before.body);
    clock.advance(1500);
    expect((await read(slotsUrl, family)).byLane).toBe(false);
  });

  it('knows every hook on the routes it answers (a new hook there needs a gate first)', () => {
    // Each hook below is one the lane mirrors: requestId, accessLog and requestDuration (its own
    // histogram child, decision 0088) itself, securityHeaders and
    // handleCors through the replayed headers and the security gate, appCheck and
    // authenticateCaller through their gates; the cookie hooks and storableBody change nothing for
    // a GET that sets no cookie and has no body. A hook added to these routes fails this test.
    const tree = t.app.printRoutes({ includeHooks: true, commonPrefix: false });
    const hooksOf = (route: string) =>
      tree
        .slice(tree.indexOf(`${route} (GET)`), tree.indexOf(`${route} (HEAD)`))
        .split('\n')
        .slice(1, 5)
        .join('\n');
    expect(t.app.answerLane.gateNames).toEqual(['security', 'app-check', 'auth', 'staff-access']);
    expect(hooksOf('available-dates')).toBe(hooksOf('available-slots'));
    expect(
      hooksOf('available-slots')
        .split('\n')
        .map((line) => line.trim()),
    ).toEqual([
      '│   • (onRequest) ["requestId()","securityHeaders()","handleCors()","appCheck()","fastifyCookieHandler()",' +
        '"authenticateCaller()"]',
      '│   • (preValidation) ["storableBody()"]',
      '│   • (onSend) ["fastifyCookieOnSendHandler()"]',
      '│   • (onResponse) ["requestDuration()","accessLog()"]',
    ]);
  });
});
