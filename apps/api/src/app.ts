import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type pg from 'pg';
import type { Config } from './config/config';
import type { Secrets } from './config/secrets';
import type { Db } from './db/client';
import { systemClock, type Clock } from './lib/clock';
import { lazyChildLogger } from './lib/lazy-child-logger';
import { requestIdOf, traceShapedIdOf } from './lib/request-id';
import { accountsRoutes } from './modules/accounts/accounts.routes';
import { appCheckRoutes } from './modules/app-check/app-check.routes';
import { healthRoutes } from './modules/health/health.routes';
import { termsRoutes } from './modules/terms/terms.routes';
import { devMailboxRoutes } from './modules/mail/dev-mailbox.routes';
import { devOutboxRoutes } from './modules/mail/dev-outbox.routes';
import { AnswerLane } from './plugins/answer-lane';
import { bindTimer, recordRequestDurations } from './modules/operations/http-metrics';
import { measurePool } from './modules/operations/operations.gauges';
import type { Tracing } from './modules/operations/tracing';
import { appCheckPlugin } from './plugins/app-check';
import { authPlugin, settleRouteAccess } from './plugins/auth';
import { staffAccessPlugin } from './plugins/staff-access';
import { MfaSecretBox } from './modules/staff-accounts/mfa-secret-box';
import { MfaService } from './modules/staff-accounts/mfa.service';
import { staffAccountsRoutes } from './modules/staff-accounts/staff-accounts.routes';
import { errorsPlugin } from './plugins/errors';
import { openapiPlugin, openapiRoutes } from './plugins/openapi';
import { rateLimitPlugin } from './plugins/rate-limit';
import { capConnectionsPerAddress } from './plugins/connection-cap';
import { Drain } from './plugins/drain';
import { clientErrors, frameworkErrors, securityPlugin } from './plugins/security';
import { webStaticPlugin } from './plugins/web-static';
import { availabilityLiveRoutes } from './modules/availability/availability-live.routes';
import { availabilityRoutes } from './modules/availability/availability.routes';
import { catalogueRoutes } from './modules/catalogue/catalogue.routes';
import { reservationsRoutes } from './modules/reservations/reservations.routes';
import { waitlistRoutes } from './modules/waitlist/waitlist.routes';
import { checkoutRoutes } from './modules/checkout/checkout.routes';
import { stripeWebhookRoutes } from './modules/payments/payments.routes';
import { stripePlugin } from './plugins/stripe';
import { bookingsRoutes } from './modules/bookings/bookings.routes';
import { ordersRoutes } from './modules/orders/orders.routes';
import { creditRoutes } from './modules/credit/credit.routes';
import { voucherRoutes } from './modules/voucher-sales/vouchers.routes';
import { voucherDeskRoutes } from './modules/voucher-sales/voucher-desk.routes';
import { policyRoutes } from './modules/policy/policy.routes';
import { charityRoutes } from './modules/donations/charity.routes';
import { cspReportRoutes } from './modules/operations/csp-reports.routes';
import { marketingRoutes } from './modules/marketing/marketing.routes';
import { privacyRoutes } from './modules/privacy/privacy.routes';
import { photosRoutes } from './modules/photos/photos.routes';
import { staffRoutes } from './modules/staff/staff.routes';
import { supportRoutes } from './modules/support/support.routes';
import { promoCodesRoutes } from './modules/promos/promo-codes.routes';
import { disputesRoutes } from './modules/disputes/disputes.routes';
import { seasonEditorRoutes } from './modules/season-editor/season-editor.routes';
import { closuresRoutes } from './modules/closures/closures.routes';
import { reportsRoutes } from './modules/reports/reports.routes';
import { liveRoutes } from './modules/live/live.routes';
import { ServerErrors } from './modules/live/server-errors';
import { SlotState } from './modules/reservations/slot-state';
import { QueueGate } from './modules/queue/queue-gate';
import { queueRoutes } from './modules/queue/queue.routes';
import { walletRoutes } from './modules/wallet/wallet.routes';
import { WalletKeyring } from './modules/wallet/wallet-keys';
import { smsWebhookRoutes } from './modules/sms/sms-webhook.routes';
import { devSmsApiRoutes, devSmsPageRoutes } from './modules/sms/dev-sms.routes';
import { staffDelayRoutes } from './modules/staff/delay.routes';

export interface AppDeps {
  config: Config;
  secrets: Secrets;
  db: Db;
  pool: pg.Pool;
  clock?: Clock;
  /** OpenTelemetry, when OTEL_EXPORTER_OTLP_ENDPOINT is set (decision 0095). */
  tracing?: Tracing;
}

/** Never log secrets: tokens, cookies, app-check tokens, passwords or card data. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-app-check"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.oobCode',
  '*.idToken',
  '*.client_secret',
];

/** Builds the whole API as one Fastify instance; server.ts only listens and shuts it down. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const clock = deps.clock ?? systemClock;
  // Hot availability reads answered in front of Fastify, from what the route and hooks already decided (decision 0035).
  // Metrics (decision 0088): the lane's answers are timed on a histogram child bound once per route and status.
  const metricsOn = config.METRICS_ENABLED && config.METRICS_PORT !== 0;
  // Tracing (decision 0095): the lane's answers get no span (one would cost more than the answer).
  const { tracing } = deps;
  const answerLane = new AnswerLane({
    enabled: config.ANSWER_LANE,
    clock,
    timer: metricsOn ? bindTimer : undefined,
    untraced: tracing ? traceShapedIdOf : undefined,
    sampleFirst: tracing?.sampleFirst,
  });
  const app = Fastify({
    logger: { level: config.LOG_LEVEL, redact: { paths: REDACT, censor: '[redacted]' } },
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    // With tracing on the request id is the trace id (API.md "Tracing").
    genReqId: tracing ? tracing.requestId : (req) => requestIdOf(req.headers),
    // Half-sent requests and silent sockets are let go (issue 36); Node checks every second, not every 30 s.
    serverFactory: (handler, opts) =>
      answerLane.serverFactory(handler, {
        ...opts,
        http: { headersTimeout: config.HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 1000 },
      }),
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
    connectionTimeout: config.CONNECTION_TIMEOUT_MS,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    frameworkErrors,
    clientErrorHandler: clientErrors,
    // At most one access line per request (below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLogger,
  });
  // First, so that its onRequest hook opens the request's span before every other hook runs.
  if (tracing) await app.register(tracing.fastifyPlugin);
  capConnectionsPerAddress(app.server, config.TRUST_PROXY ? 0 : config.MAX_CONNECTIONS_PER_ADDRESS, app.log);
  // Set going by server.ts on SIGTERM; it tracks the sockets from the first one on.
  const drain = new Drain(app.server);
  app.decorate('drain', drain);
  app.addHook('preClose', async () => drain.closeAfterAnswers());
  // First of all, so that routes plugins add (CORS preflight included) get their access too.
  app.addHook('onRoute', settleRouteAccess);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('secrets', deps.secrets);
  app.decorate('db', deps.db);
  app.decorate('pool', deps.pool);
  // The process's memory of sessions: the taken-sessions memo, availability answers, live feed, hold batcher.
  app.decorate('slotState', new SlotState(deps.pool, config.AVAILABILITY_CACHE_MS));
  app.decorate('clock', clock);
  app.decorate('answerLane', answerLane);
  // The fair start's check in the hold, and its line's nudges (decision 0053).
  app.decorate('queueGate', new QueueGate({ db: deps.db, clock, config }));
  // The 5xx answers the Live page counts (decision 0094): recorded by the error handler.
  const serverErrors = new ServerErrors({ pool: deps.pool, nowMs: () => clock.now().getTime(), log: app.log });
  app.decorate('serverErrors', serverErrors);
  app.addHook('onClose', async () => serverErrors.close());
  // Wallet pass keys, resolved on first use (decision 0099).
  app.decorate('walletKeys', new WalletKeyring(config, deps.secrets.jwtPrivateKeyPem));
  const unmeasure = measurePool(deps.pool, config.DATABASE_POOL_SIZE);
  app.addHook('onClose', async () => unmeasure());
  if (metricsOn) recordRequestDurations(app);
  app.addHook('onReady', async () => answerLane.start(config.TRUST_PROXY ? null : app.log));
  app.addHook('preClose', async () => answerLane.stop());
  // Not an async hook: a promise per request for one header showed in drop-day profiles.
  app.addHook('onRequest', function requestId(request, reply, done) {
    reply.header('x-request-id', request.id);
    // An empty body is no body (issue 36): optional-body POSTs (sign-out, refresh) sent with a JSON
    // content type and nothing else were "not valid JSON". A required body still fails validation.
    const { headers } = request;
    if (
      headers['content-type'] !== undefined &&
      (headers['content-length'] === '0' ||
        (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined))
    ) {
      delete headers['content-type'];
    }
    done();
  });
  // Behind a proxy (TRUST_PROXY) the proxy writes the access log (bench/nginx/kringle.conf.template)
  // and this API logs its own events under the X-Request-Id it sends: per-request logging cost
  // about a tenth of a cached read. Without a proxy, one plain line per request (a logged object
  // would pass through the redaction paths every time), when asked (LOG_REQUESTS): on the embedded
  // default it pushed the banner out of view, and cost up to a third of a read (issues 37, 41).
  if (!config.TRUST_PROXY && config.LOG_REQUESTS) {
    const line = (request: FastifyRequest, reply: FastifyReply) =>
      `${request.method} ${request.url} ${reply.statusCode} ${Math.round(reply.elapsedTime)}ms`;
    app.addHook('onResponse', function accessLog(request, reply, done) {
      // The embedded default is read by a person in a terminal: a plain line, not JSON.
      if (config.embedded) process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line(request, reply)}\n`);
      else request.log.info(line(request, reply));
      done();
    });
  }

  await app.register(errorsPlugin);
  await app.register(securityPlugin);
  await app.register(openapiPlugin);
  await app.register(rateLimitPlugin);
  await app.register(appCheckPlugin);
  await app.register(stripePlugin);
  await app.register(authPlugin);
  await app.register(staffAccessPlugin);
  // The second factor, for sign-in (accounts) and enrolment (staff accounts); decision 0050.
  app.decorate(
    'mfa',
    new MfaService(deps.db, clock, new MfaSecretBox(deps.secrets.jwtPrivateKeyPem), config.BRAND_NAME),
  );

  // Root-level probes for load balancers; the same under /api/v1 per API.md.
  await app.register(healthRoutes);
  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(openapiRoutes);
      await api.register(termsRoutes);
      await api.register(devOutboxRoutes);
      await api.register(appCheckRoutes);
      // Feature modules register here, each under /api/v1.
      await api.register(accountsRoutes);
      await api.register(catalogueRoutes);
      await api.register(availabilityRoutes);
      await api.register(availabilityLiveRoutes);
      await api.register(policyRoutes);
      await api.register(charityRoutes);
      await api.register(privacyRoutes);
      await api.register(marketingRoutes);
      await api.register(cspReportRoutes);
      await api.register(reservationsRoutes);
      await api.register(waitlistRoutes);
      await api.register(queueRoutes);
      await api.register(checkoutRoutes);
      await api.register(bookingsRoutes);
      await api.register(ordersRoutes);
      await api.register(creditRoutes);
      await api.register(voucherRoutes);
      await api.register(voucherDeskRoutes);
      await api.register(staffRoutes);
      await api.register(staffAccountsRoutes);
      await api.register(supportRoutes);
      await api.register(disputesRoutes);
      await api.register(promoCodesRoutes);
      await api.register(seasonEditorRoutes);
      await api.register(closuresRoutes);
      await api.register(reportsRoutes);
      await api.register(liveRoutes);
      await api.register(photosRoutes);
      await api.register(stripeWebhookRoutes);
      await api.register(walletRoutes);
      await api.register(smsWebhookRoutes);
      await api.register(devSmsApiRoutes);
      await api.register(staffDelayRoutes);
    },
    { prefix: '/api/v1' },
  );

  await app.register(devMailboxRoutes);
  await app.register(devSmsPageRoutes);
  await app.register(webStaticPlugin);
  return app;
}
