import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * An availability answer as it leaves the process, built once per change (decision 0029): the JSON
 * bytes, their strong ETag and their gzip and brotli forms, kept together in the availability
 * cache's entry and dropped with it. Per request only a header comparison and a write are left.
 */
export interface BuiltAnswer {
  json: Buffer;
  gzip: Buffer;
  br: Buffer;
  /** base64url of the JSON's SHA-256 (128 bits): the same bytes give the same tag in every process. */
  hash: string;
  etag: { identity: string; gzip: string; br: string };
  /** Every answer a request can get, made once per change: per request, outcomeOf only picks one (decision 0077). */
  outcomes: Outcomes;
}

type ByCoding = Record<'br' | 'gzip' | 'identity', AnswerOutcome>;
/** `tagStart`: `"hash`, which If-None-Match holds when it names any of the answer's tags. */
type Outcomes = { tagStart: string; fresh: ByCoding; unchanged: ByCoding };

/**
 * Builds the answer for `json`, or hands back `previous` when its bytes are the same (a background
 * refresh of a day nobody changed): the hash and both compressions are then not paid again.
 * Compression runs on libuv's threads, off the event loop. Brotli quality 5: about 1 ms for a
 * day of sessions (8.5 kB to 1.2 kB); quality 11 took 50 ms for 5% fewer bytes.
 */
export async function buildAnswer(json: Buffer, previous?: BuiltAnswer): Promise<BuiltAnswer> {
  if (previous && previous.json.equals(json)) return previous;
  const hash = createHash('sha256').update(json).digest().subarray(0, 16).toString('base64url');
  const [gz, br] = await Promise.all([
    gzipAsync(json),
    brotliAsync(json, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: json.length },
    }),
  ]);
  // Each coding is its own representation, so its strong tag differs (RFC 9110 8.8.3); a
  // revalidation matches any of them (If-None-Match compares weakly).
  const etag = { identity: `"${hash}"`, gzip: `"${hash}-gzip"`, br: `"${hash}-br"` };
  return { json, gzip: gz, br, hash, etag, outcomes: outcomesOf(hash, etag, { identity: json, gzip: gz, br }) };
}

function outcomesOf(
  hash: string,
  etag: BuiltAnswer['etag'],
  bodies: Record<'br' | 'gzip' | 'identity', Buffer>,
): Outcomes {
  const of = (status: 200 | 304, coding: 'br' | 'gzip' | 'identity'): AnswerOutcome => ({
    status,
    etag: etag[coding],
    coding: coding === 'identity' ? null : coding,
    body: status === 200 ? bodies[coding] : null,
  });
  const codings = (status: 200 | 304): ByCoding => ({
    br: of(status, 'br'),
    gzip: of(status, 'gzip'),
    identity: of(status, 'identity'),
  });
  return { tagStart: `"${hash}`, fresh: codings(200), unchanged: codings(304) };
}

type Coding = 'br' | 'gzip' | null;

/**
 * Answers per Accept-Encoding value: a browser sends the same one on every read, and parsing it
 * allocated a dozen strings a request. Only short values are kept, and the map is emptied when
 * full, so odd values cannot grow it.
 */
const codingByHeader = new Map<string, Coding>();
const CODINGS_KEPT = 64;

/** The coding the client prefers among br and gzip (q > 0), br first on a tie; null: send plain JSON. */
export function preferredEncoding(acceptEncoding: string | undefined): Coding {
  if (!acceptEncoding) return null;
  let coding = codingByHeader.get(acceptEncoding);
  if (coding !== undefined) return coding;
  coding = parsePreferredEncoding(acceptEncoding);
  if (acceptEncoding.length > 200) return coding;
  if (codingByHeader.size >= CODINGS_KEPT) codingByHeader.clear();
  codingByHeader.set(acceptEncoding, coding);
  return coding;
}

function parsePreferredEncoding(acceptEncoding: string): Coding {
  let best: Coding = null;
  let bestQ = 0;
  for (const part of acceptEncoding.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName!.trim().toLowerCase();
    if (name !== 'br' && name !== 'gzip' && name !== '*') continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!(q > 0)) continue;
    const coding = name === 'gzip' ? 'gzip' : 'br';
    if (q > bestQ || (q === bestQ && coding === 'br' && best !== 'br')) [best, bestQ] = [coding, q];
  }
  return best;
}

/** If-None-Match names this answer (any coding's tag, weak or strong), or is `*`. */
export function isUnchanged(ifNoneMatch: string | undefined, answer: BuiltAnswer): boolean {
  if (!ifNoneMatch) return false;
  // The hash is fixed-length base64url, so `"hash` only occurs as the start of one of its own tags.
  return ifNoneMatch.includes(answer.outcomes.tagStart) || ifNoneMatch.trim() === '*';
}

/**
 * What a request is answered with, from its own headers: the same in the Fastify route and the
 * answer lane. One of the answer's six (status, coding), shared by every request that gets it, so
 * the lane can key what it builds for it by the object itself.
 */
export interface AnswerOutcome {
  readonly status: 200 | 304;
  readonly etag: string;
  readonly coding: 'br' | 'gzip' | null;
  /** The bytes to send (none for a 304). */
  readonly body: Buffer | null;
}

export function outcomeOf(
  headers: { 'accept-encoding'?: string; 'if-none-match'?: string },
  answer: BuiltAnswer,
): AnswerOutcome {
  const byCoding = isUnchanged(headers['if-none-match'], answer) ? answer.outcomes.unchanged : answer.outcomes.fresh;
  return byCoding[preferredEncoding(headers['accept-encoding']) ?? 'identity'];
}

/**
 * `private, no-cache`: a browser may keep the answer but asks again every time (with If-None-Match);
 * no shared cache keeps it.
 */
export const BUILT_CACHE_CONTROL = 'private, no-cache';
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Sets a built answer's headers on the reply: 304 with no body when the client already has it,
 * otherwise the bytes in the coding asked for. The security headers set on every request stay
 * (sendBuilt leaves a 304 without those that only govern a body).
 * Sending is left to the caller (sendBuilt), so the answer lane can note the headers first.
 */
export function prepareBuilt(request: FastifyRequest, reply: FastifyReply, answer: BuiltAnswer): AnswerOutcome {
  const outcome = outcomeOf(request.headers, answer);
  // CORS may have said Vary: Origin already (several app origins): added to, not replaced.
  const vary = reply.getHeader('vary');
  reply
    .header('cache-control', BUILT_CACHE_CONTROL)
    .header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
  reply.header('etag', outcome.etag);
  if (outcome.status === 304) return outcome;
  reply.type(JSON_TYPE);
  if (outcome.coding) reply.header('content-encoding', outcome.coding);
  return outcome;
}

/**
 * Headers that only govern a body (how to render, embed or refer from it, and HSTS, which the 200s
 * carry): a 304 leaves out what it would not change, as RFC 9110 15.4.5 allows. The browser keeps
 * the stored 200's headers for what a 304 does not send. Fewer headers to validate and write made a
 * 304 about 1.5 µs cheaper (decision 0037).
 */
export const BODY_ONLY_HEADERS: ReadonlySet<string> = new Set([
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'cross-origin-resource-policy',
  'strict-transport-security',
]);

export function sendBuilt(reply: FastifyReply, outcome: AnswerOutcome): FastifyReply {
  if (outcome.body) return reply.send(outcome.body);
  for (const name of BODY_ONLY_HEADERS) reply.removeHeader(name);
  return reply.code(304).send();
}
