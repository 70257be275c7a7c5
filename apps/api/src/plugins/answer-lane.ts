import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../lib/clock';
import { requestIdOf } from '../lib/request-id';
import { endWithHead, headPrefix, HeadTail, rawHeadSupported, takesRawHead } from './raw-head';
import {
  BODY_ONLY_HEADERS,
  JSON_TYPE,
  outcomeOf,
  type AnswerOutcome,
  type BuiltAnswer,
} from '../modules/availability/availability.answer';

/** What a gate knows of the route a remembered URL belongs to. */
export interface LaneRoute {
  url: string;
  config: FastifyContextConfig;
}

/**
 * A plugin's onRequest hook, answered from memory: true only when that hook would let this request
 * through without a change to the answer (a token it has verified before, no header it refuses).
 * Anything else is the hook's to decide, so the request goes to Fastify.
 */
export type LaneGate = (request: IncomingMessage, route: LaneRoute, nowMs: number) => boolean;

/** The built answer for a cache key, when one can be sent without the route (AvailabilityCache.servable). */
export type LaneLookup = (key: string, now: Date) => BuiltAnswer | undefined;

interface Remembered {
  route: LaneRoute;
  key: string;
  lookup: LaneLookup;
  /**
   * The route's own headers on its first answer to this URL that the gates admit, less those of one answer (flat, for
   * writeHead).
   */
  headers: string[];
  /** The same for a 304, which the route sends without the headers that only govern a body. */
  notModified: string[];
  /** Whole heads for the current answer, per outcome (status and coding), built on first use (see `headFor`). */
  built: { answer: BuiltAnswer | null; heads: Map<AnswerOutcome, Head> };
  /** The duration histogram's child per status for this route, bound on first use (decision 0088). */
  timers: Map<number, LaneTimer>;
}

/** A histogram child with its route, method and status bound: one observe per answer. */
export interface LaneTimer {
  observe(seconds: number): void;
}

/**
 * One kind of answer's head: the list for writeHead (the request id last) and the same as a string up to the id
 * (raw-head.ts).
 */
interface Head {
  list: string[];
  prefix: string;
}

/** The part of Fastify's options (defaults applied) that its own server would take. */
interface ServerOptions {
  http?: http.ServerOptions;
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  maxRequestsPerSocket?: number | null;
}

/**
 * The whole head for one kind of answer (status and coding) to a remembered URL, built once per
 * built answer rather than per request (issue 41: a cached read's headers are the same every time
 * but for the request id, written per answer, and Node's date and connection headers).
 */
function headFor(hit: Remembered, answer: BuiltAnswer, outcome: AnswerOutcome): Head {
  if (hit.built.answer !== answer) hit.built = { answer, heads: new Map() };
  // A 304 carries its coding's tag too, so each status and coding is its own head. The outcome is
  // the answer's own object for that pair, so it is the key (no string built per request).
  let head = hit.built.heads.get(outcome);
  if (head) return head;
  const list = [...(outcome.body ? hit.headers : hit.notModified), 'etag', outcome.etag];
  if (outcome.body) {
    list.push('content-type', JSON_TYPE, 'content-length', String(outcome.body.length));
    if (outcome.coding) list.push('content-encoding', outcome.coding);
  }
  head = { list: [...list, 'x-request-id', ''], prefix: headPrefix(outcome.status, list) };
  hit.built.heads.set(outcome, head);
  return head;
}

/** Node's own default for a server's insecureHTTPParser (node:_http_common isLenient). */
const lenientByFlag = () =>
  [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].includes('--insecure-http-parser');

/** Set per answer by the lane itself, or by Node. */
const PER_ANSWER = new Set([
  'x-request-id',
  'etag',
  'content-type',
  'content-length',
  'content-encoding',
  'date',
  'connection',
  'keep-alive',
]);

/**
 * The answer lane (decision 0035): a GET of a URL that a route has already answered, with its
 * built answer still fresh, is answered before Fastify routes it, from what the route and the
 * onRequest hooks worked out the first time: the URL passed validation, the tokens are ones the
 * hooks verified, the headers are the ones the route sent. The lane never refuses anything: when
 * any gate is unsure, or the answer is not ready, Fastify answers as always.
 */
export class AnswerLane {
  private readonly gates = new Map<string, LaneGate>();
  private gateList: LaneGate[] = [];
  private readonly urls = new Map<string, Remembered>();
  private open = false;
  /** Node's date and connection headers for the server's keep-alive timeout (set by serverFactory). */
  private tail: HeadTail | null = null;
  /** Whether this Node's ServerResponse takes a prebuilt head (raw-head.ts), known from the first answer. */
  private rawHead: boolean | null = null;
  /** Answers sent by the lane (the tests tell which way a read went by it). */
  served = 0;
  /**
   * Whether every request the lane sees came through Node's strict HTTP/1.1 parser (set by
   * serverFactory). That parser refuses a NUL in a header (400, before any handler), and Node reads
   * header bytes as latin1, one character per byte, so no header can hold a lone surrogate: what
   * the security hook looks for is not there to find (decision 0077).
   */
  strictParser = false;

  constructor(
    private readonly options: {
      enabled: boolean;
      clock: Clock;
      maxUrls?: number;
      timer?: (route: string, method: string, status: number) => LaneTimer;
      /**
       * With tracing on (decision 0095): the lane answers ahead of the HTTP instrumentation, with
       * no span, and its request ids come from this (trace-id-shaped) instead of requestIdOf.
       */
      untraced?: (headers: IncomingMessage['headers']) => string;
      /** With tracing on: what the requests the lane leaves go through (head sampling, decision 0102). */
      sampleFirst?: (emit: http.Server['emit']) => http.Server['emit'];
    },
    private log: FastifyBaseLogger | null = null,
  ) {}

  /** Each plugin with an onRequest hook on a lane route adds the same decision, made from memory. */
  addGate(name: string, gate: LaneGate): void {
    this.gates.set(name, gate);
    this.gateList = [...this.gates.values()];
  }

  get gateNames(): string[] {
    return [...this.gates.keys()];
  }

  /** From app ready to close; `log`: where one line per answer goes when the API writes its own access log. */
  start(log: FastifyBaseLogger | null): void {
    this.log = log;
    this.open = this.options.enabled;
  }

  stop(): void {
    this.open = false;
    this.urls.clear();
  }

  /**
   * Called by a route as it answers: the URL (exactly as sent) passed its validation and maps to
   * `key`. Only a request the gates admit is remembered, so the headers kept are the ones such a
   * request gets (no CORS answer to an Origin, for one).
   */
  remember(request: FastifyRequest, reply: FastifyReply, key: string, lookup: LaneLookup): void {
    if (!this.open || request.method !== 'GET' || this.urls.has(request.url)) return;
    const route: LaneRoute = { url: request.routeOptions.url ?? '', config: request.routeOptions.config };
    const nowMs = this.options.clock.now().getTime();
    if (!this.gateList.every((gate) => gate(request.raw, route, nowMs))) return;
    const headers: string[] = [];
    const notModified: string[] = [];
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (name === 'set-cookie') return;
      if (value === undefined || PER_ANSWER.has(name)) continue;
      for (const v of Array.isArray(value) ? value : [value]) {
        headers.push(name, String(v));
        if (!BODY_ONLY_HEADERS.has(name)) notModified.push(name, String(v));
      }
    }
    // Oldest first out: Map keeps insertion order.
    if (this.urls.size >= (this.options.maxUrls ?? 10_000)) this.urls.delete(this.urls.keys().next().value!);
    this.urls.set(request.url, {
      route,
      key,
      lookup,
      headers,
      notModified,
      built: { answer: null, heads: new Map() },
      timers: new Map(),
    });
  }

  /** Fastify's serverFactory: the server Fastify would create, with the lane in front of its handler. */
  serverFactory = (handler: (req: IncomingMessage, res: ServerResponse) => void, opts: Record<string, unknown>) => {
    const options = opts as unknown as ServerOptions;
    const untraced = this.options.untraced;
    const server = http.createServer(
      options.http ?? {},
      untraced
        ? handler
        : (req, res) => {
            if (!this.serve(req, res)) handler(req, res);
          },
    );
    if (untraced) {
      // The HTTP instrumentation wraps Server.prototype.emit and opens a span per 'request'
      // there, before any listener: the lane answers first, and what it leaves is sampled (sampleFirst)
      // before the instrumentation sees it.
      const emit = this.options.sampleFirst?.(server.emit) ?? server.emit;
      const serve = (req: IncomingMessage, res: ServerResponse) => this.serve(req, res);
      server.emit = function (this: http.Server, event: string | symbol, req?: unknown, res?: unknown) {
        if (event === 'request' && serve(req as IncomingMessage, res as ServerResponse)) return true;
        // eslint-disable-next-line prefer-rest-params
        return emit.apply(this, arguments as unknown as Parameters<typeof emit>);
      } as typeof server.emit;
    }
    this.strictParser = !(options.http?.insecureHTTPParser ?? lenientByFlag());
    // What Fastify does to the server it creates itself (fastify/lib/server.js).
    server.keepAliveTimeout = options.keepAliveTimeout;
    this.tail = new HeadTail(options.keepAliveTimeout);
    server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };

  private serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.open || req.method !== 'GET') return false;
    const hit = this.urls.get(req.url!);
    if (!hit) return false;
    // One clock read for every gate and the lookup: each Date is an allocation on the hottest path.
    const now = this.options.clock.now();
    const nowMs = now.getTime();
    for (const gate of this.gateList) if (!gate(req, hit.route, nowMs)) return false;
    const answer = hit.lookup(hit.key, now);
    if (!answer) return false;
    const bind = this.options.timer;
    const started = this.log || bind ? performance.now() : 0;
    const outcome = outcomeOf(req.headers, answer);
    const head = headFor(hit, answer, outcome);
    const id = this.options.untraced ? this.options.untraced(req.headers) : requestIdOf(req.headers);
    this.rawHead ??= rawHeadSupported(res);
    if (this.rawHead && this.tail && takesRawHead(req, res, this.tail.keepAliveTimeoutMs)) {
      endWithHead(res, outcome.status, head.prefix + id + this.tail.now(), outcome.body);
    } else {
      // Only the id differs between two answers of one kind: writeHead copies the list before it returns.
      head.list[head.list.length - 1] = id;
      res.writeHead(outcome.status, head.list);
      res.end(outcome.body ?? undefined);
    }
    this.served++;
    if (bind) {
      // The cheapest record of an answer: a Map lookup and one observe on a child bound once.
      let timer = hit.timers.get(outcome.status);
      if (!timer) hit.timers.set(outcome.status, (timer = bind(hit.route.url, 'GET', outcome.status)));
      timer.observe((performance.now() - started) / 1000);
    }
    this.log?.info({ reqId: id }, `GET ${req.url} ${outcome.status} ${Math.round(performance.now() - started)}ms`);
    return true;
  }
}
