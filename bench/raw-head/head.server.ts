import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { endWithHead, headPrefix, HeadTail, rawHeadSupported, takesRawHead } from '../../apps/api/src/plugins/raw-head';

/**
 * One side of `npm run bench:raw-head`: the answer lane's two ways of writing an answer, alone in a
 * bare server. HEAD=node: writeHead with the header list (as before decision 0072); HEAD=raw: the
 * prebuilt head. GET /304 answers 304, anything else the 9.6 kB answer, with the lane's headers.
 */
const raw = process.env.HEAD === 'raw';
const KEEP_ALIVE_MS = 72_000;
const BODY = Buffer.alloc(9648, 'x');
const BODY_HEADERS = [
  'content-security-policy',
  "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options',
  'nosniff',
  'x-frame-options',
  'DENY',
  'referrer-policy',
  'no-referrer',
  'cross-origin-resource-policy',
  'same-origin',
];
const COMMON = [
  'cache-control',
  'private, no-cache',
  'vary',
  'Origin, Accept-Encoding',
  'etag',
  '"WDu-zjE5qcVLDkV3u11Vlw"',
];
const lists = {
  200: [
    ...COMMON,
    ...BODY_HEADERS,
    'content-type',
    'application/json; charset=utf-8',
    'content-length',
    String(BODY.length),
  ],
  304: COMMON,
};
const prefixes = { 200: headPrefix(200, lists[200]), 304: headPrefix(304, lists[304]) };
const tail = new HeadTail(KEEP_ALIVE_MS);
const server = http.createServer((req, res) => {
  const status = req.url === '/304' ? 304 : 200;
  const body = status === 200 ? BODY : null;
  const id = randomUUID();
  if (raw && rawHeadSupported(res) && takesRawHead(req, res, KEEP_ALIVE_MS))
    return endWithHead(res, status, prefixes[status] + id + tail.now(), body);
  res.writeHead(status, [...lists[status], 'x-request-id', id]);
  res.end(body ?? undefined);
});
server.keepAliveTimeout = KEEP_ALIVE_MS;
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
