import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { corsHook } from './cors';
import { eventsRoutes } from './events.routes';
import { randomToken } from './ids';
import { IdempotencyStore } from './idempotency-store';
import { paymentIntentsRoutes } from './payment-intents.routes';
import { disputesRoutes } from './disputes.routes';
import { filesRoutes } from './files.routes';
import { refundsRoutes } from './refunds.routes';
import { readSnapshot, restoreState, takeSnapshot, writeSnapshot } from './sandbox-persistence';
import { SandboxState } from './sandbox-state';
import type { Charge, Dispute, PaymentIntent, Refund, StripeEvent } from './stripe-objects';
import { StripeError } from './stripe-errors';
import { threeDSecureRoutes } from './three-d-secure.routes';
import {
  DEFAULT_WEBHOOK_RETRY,
  WebhookDispatcher,
  type DeliveryAttempt,
  type WebhookRetryOptions,
} from './webhook-dispatcher';

/** The API version stripe@23 sends; events carry it like a Stripe account's default version. */
export const DEFAULT_API_VERSION = '2026-10-28.endive';

export interface StripeSandboxOptions {
  /** `sk_test_sandbox_…`: server calls authenticate with it. */
  secretKey: string;
  /** `pk_test_sandbox_…`: allowed only for the browser's confirm and retrieve (with client_secret). */
  publishableKey: string;
  /** `whsec_…`: webhooks are signed with it. */
  webhookSecret: string;
  /** Where events are POSTed; none: events are only recorded (settable later with setWebhookUrl). */
  webhookUrl?: string | null;
  /** Base URL browsers reach the sandbox at (3-D Secure links); defaults to the listening URL. */
  publicUrl?: string;
  /** Interface to listen on; 127.0.0.1 unless a phone on the network must reach the 3-D Secure page. */
  host?: string;
  /** Browser origins allowed besides any localhost origin. */
  allowedOrigins?: string[];
  /** Name shown on the 3-D Secure page. */
  merchantName?: string;
  apiVersion?: string;
  /** Backoff of webhook retries; tests make it fast. */
  webhookRetry?: Partial<WebhookRetryOptions>;
  /** Fastify's logger option (off by default). */
  logger?: boolean;
  /**
   * A JSON file the state is kept in across restarts (read at creation, rewritten atomically
   * after each change); none: memory only, as the tests use it.
   */
  stateFile?: string;
  /** Called when an event is given up after its last attempt. */
  onWebhookGiveUp?: (event: StripeEvent, lastAttempt: DeliveryAttempt) => void;
}

export interface StripeSandbox {
  /** The listening URL, e.g. http://127.0.0.1:41234 (after start). */
  readonly url: string;
  /** The URL browsers use: publicUrl or url. */
  readonly publicUrl: string;
  readonly secretKey: string;
  readonly publishableKey: string;
  readonly webhookSecret: string;
  /** The Fastify app, for `inject` in tests. */
  readonly app: FastifyInstance;
  start(port?: number): Promise<string>;
  stop(): Promise<void>;
  /** Options for `new Stripe(secretKey, { ...sandbox.stripeClientOptions() })`. */
  stripeClientOptions(): { host: string; port: number; protocol: 'http' };
  setWebhookUrl(url: string | null): void;
  /** Every event so far, oldest first (copies). */
  events(type?: string): StripeEvent[];
  paymentIntent(id: string): PaymentIntent | undefined;
  charge(id: string): Charge | undefined;
  refund(id: string): Refund | undefined;
  dispute(id: string): Dispute | undefined;
  /** Every webhook attempt so far (of one event, or all), in order. */
  webhookAttempts(eventId?: string): DeliveryAttempt[];
  /** Events not yet delivered (held by a pause or waiting for a retry). */
  pendingWebhooks(): StripeEvent[];
  /** Holds webhooks (new ones and retries) until resumeWebhooks(): a test can deliver them late. */
  pauseWebhooks(): void;
  resumeWebhooks(): void;
  /** One delivery attempt of an event now: a duplicate, or a chosen order while paused. */
  redeliver(eventId: string): Promise<DeliveryAttempt>;
  /** Resolves when no webhook is in flight or waiting for a retry timer. */
  webhooksIdle(): Promise<void>;
}

/** Random keys in the sandbox's formats, for a run that does not configure its own. */
export function sandboxKeys(): Pick<StripeSandboxOptions, 'secretKey' | 'publishableKey' | 'webhookSecret'> {
  return {
    secretKey: `sk_test_sandbox_${randomToken(24)}`,
    publishableKey: `pk_test_sandbox_${randomToken(24)}`,
    webhookSecret: `whsec_${randomToken(32)}`,
  };
}

/** Builds the sandbox; nothing listens until start(). */
export function createStripeSandbox(options: StripeSandboxOptions): StripeSandbox {
  checkKey('secretKey', options.secretKey, 'sk_test_');
  checkKey('publishableKey', options.publishableKey, 'pk_test_');
  checkKey('webhookSecret', options.webhookSecret, 'whsec_');
  const apiVersion = options.apiVersion ?? DEFAULT_API_VERSION;
  const dispatcher = new WebhookDispatcher(
    options.webhookUrl ?? null,
    options.webhookSecret,
    { ...DEFAULT_WEBHOOK_RETRY, ...options.webhookRetry },
    options.onWebhookGiveUp,
  );
  let webhookUrl = options.webhookUrl ?? null;
  const state = new SandboxState(
    apiVersion,
    (event) => dispatcher.enqueue(event),
    () => webhookUrl !== null,
  );
  let listeningUrl: string | null = null;
  const publicUrl = () => options.publicUrl?.replace(/\/$/, '') ?? listening();
  const listening = () => {
    if (!listeningUrl) throw new Error('The Stripe sandbox is not started.');
    return listeningUrl;
  };

  // A stop ends every connection at once: a call in flight then would keep an idle keep-alive
  // socket open after it, and the stop would wait out Fastify's 72 s keep-alive timeout.
  const app = Fastify({ logger: options.logger ?? false, forceCloseConnections: true });
  app.removeAllContentTypeParsers();
  // Stripe's v1 API is form-encoded; every body reaches the routes as the raw string.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  // Uploads (`POST /v1/files`) are multipart with binary parts: kept as bytes.
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: 6 * 1024 * 1024 },
    (_req, body, done) => done(null, body),
  );
  app.addHook('onRequest', corsHook(options.allowedOrigins ?? []));
  app.options('/*', (_req, reply) => reply.code(204).send());
  const deps = { keys: options, apiVersion, idempotency: new IdempotencyStore() };
  const persist = options.stateFile ? persistence(options.stateFile, options, state, deps.idempotency) : null;
  // Written before the answer leaves: a payment answered and then lost in a crash was cancelled by
  // the API's reconciliation (issue 36). A failed write answers this request 500, never ends the process.
  if (persist) {
    app.addHook('onSend', async (req, reply, payload) => {
      if (req.method === 'GET' || req.method === 'OPTIONS') return payload;
      try {
        persist.now();
        return payload;
      } catch (err) {
        console.error(`Stripe sandbox: could not write ${options.stateFile}: ${(err as Error).message}`);
        const error = new StripeError({
          status: 500,
          type: 'api_error',
          message: 'The Stripe sandbox could not save this change (its state file could not be written).',
        });
        void reply.code(500).type('application/json');
        return JSON.stringify(error.toBody(`req_${randomToken(14)}`));
      }
    });
  }
  paymentIntentsRoutes(app, { deps, state, publicUrl });
  refundsRoutes(app, { deps, state });
  disputesRoutes(app, { deps, state });
  filesRoutes(app, { deps, state, publicUrl });
  eventsRoutes(app, { deps, state });
  threeDSecureRoutes(app, { state, merchant: options.merchantName ?? 'Kringle' });
  app.setNotFoundHandler((req, reply) => {
    const error = new StripeError({
      status: 404,
      type: 'invalid_request_error',
      message:
        `Unrecognized request URL ` +
        `(${req.method}: ${req.url.split('?')[0]}). The Stripe sandbox serves only the endpoints in its README.`,
    });
    void reply.code(404).send(error.toBody(`req_${randomToken(14)}`));
  });

  const copy = <T>(value: T | undefined) => (value === undefined ? undefined : structuredClone(value));
  const eventOrThrow = (id: string) => {
    const event = state.eventsById.get(id);
    if (!event) throw new Error(`No such event: ${id}`);
    return event;
  };

  return {
    get url() {
      return listening();
    },
    get publicUrl() {
      return publicUrl();
    },
    secretKey: options.secretKey,
    publishableKey: options.publishableKey,
    webhookSecret: options.webhookSecret,
    app,
    async start(port = 0) {
      const host = options.host ?? '127.0.0.1';
      await app.listen({ host, port });
      const address = app.server.address() as AddressInfo;
      const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
      listeningUrl = `http://${shownHost}:${address.port}`;
      return listeningUrl;
    },
    async stop() {
      dispatcher.stop();
      await app.close();
      try {
        persist?.now();
      } catch (err) {
        console.error(`Stripe sandbox: could not write ${options.stateFile} at stop: ${(err as Error).message}`);
      }
      listeningUrl = null;
    },
    stripeClientOptions() {
      const url = new URL(listening());
      return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port), protocol: 'http' };
    },
    setWebhookUrl(url) {
      webhookUrl = url;
      dispatcher.setUrl(url);
    },
    events: (type) => structuredClone(state.events.filter((e) => !type || e.type === type)),
    paymentIntent: (id) => copy(state.paymentIntents.get(id)),
    charge: (id) => copy(state.charges.get(id)),
    refund: (id) => copy(state.refunds.get(id)),
    dispute: (id) => copy(state.disputes.get(id)),
    webhookAttempts: (eventId) => dispatcher.attempts(eventId),
    pendingWebhooks: () => structuredClone(dispatcher.pending()),
    pauseWebhooks: () => dispatcher.pause(),
    resumeWebhooks: () => dispatcher.resume(),
    redeliver: (eventId) => dispatcher.redeliver(eventOrThrow(eventId)),
    webhooksIdle: () => dispatcher.idle(),
  };
}

/** Loads the state file into the fresh state; `now` saves it (after every change, before the answer). */
function persistence(file: string, keys: StripeSandboxOptions, state: SandboxState, idempotency: IdempotencyStore) {
  const snapshot = readSnapshot(file);
  if (snapshot) {
    if (snapshot.keys.secretKey !== keys.secretKey)
      throw new Error(
        `Stripe sandbox: ${file} was written with other keys; pass its keys (snapshotKeys) or move it away.`,
      );
    restoreState(state, snapshot);
    idempotency.restore(snapshot.idempotency);
  }
  const ownKeys = { secretKey: keys.secretKey, publishableKey: keys.publishableKey, webhookSecret: keys.webhookSecret };
  const now = () => writeSnapshot(file, takeSnapshot(state, ownKeys, idempotency.snapshot()));
  now();
  return { now };
}

function checkKey(name: string, value: string, prefix: string): void {
  if (typeof value !== 'string' || !value.startsWith(prefix) || value.length < prefix.length + 8) {
    throw new Error(`Stripe sandbox: ${name} must look like ${prefix}… (got ${JSON.stringify(value)})`);
  }
}
