import fs from 'node:fs';
import path from 'node:path';
import { snapshotKeys } from '@kringle/stripe-sandbox/sandbox-persistence';
import { createStripeSandbox, sandboxKeys, type StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { ConfigError, type Config } from './config/config';
import { resolveSecrets } from './config/secrets';
import type { EmbeddedDatabase } from './dev/embedded-postgres';
import { startSmtpCatcher, type SmtpCatcher } from './dev/smtp-catcher';
import { seedDemoAccounts } from './modules/accounts/demo-accounts.seed';
import { demoSeason } from './modules/catalogue/demo-season';
import { loadSeason } from './modules/catalogue/season.service';
import { devMailboxEnabled, useEmbeddedCatcher } from './modules/mail/mail-transport';
import { runServer } from './server';
import type { FastifyInstance } from 'fastify';
import type { Tracing } from './modules/operations/tracing';

/**
 * `npm start`: the whole stack on the embedded defaults. With DATABASE_URL set it uses that
 * database and starts nothing else; otherwise it runs PostgreSQL in ./.data itself.
 */
export async function startStack(loaded: Config, tracing: Tracing | null) {
  const secrets = await resolveSecrets(loaded);
  let embeddedDb: EmbeddedDatabase | null = null;
  let databaseUrl = loaded.DATABASE_URL;
  // Migrations as the tables' owner, the API as a role that owns nothing (decision 0078).
  let migrationUrl = loaded.MIGRATION_DATABASE_URL;
  if (!databaseUrl) {
    try {
      fs.mkdirSync(loaded.DATA_DIR, { recursive: true });
      fs.accessSync(loaded.DATA_DIR, fs.constants.W_OK);
    } catch (err) {
      throw new ConfigError(
        `Invalid configuration: DATA_DIR: cannot create or write ` +
          `${loaded.DATA_DIR} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      );
    }
    // Imported only here: the package's exit hook ends the process on SIGTERM (after stopping its
    // server), which with DATABASE_URL would cut the drain short (decision 0093).
    const { startEmbeddedPostgres } = await import('./dev/embedded-postgres');
    embeddedDb = await startEmbeddedPostgres(path.join(loaded.DATA_DIR, 'postgres'));
    databaseUrl = embeddedDb.runtimeUrl;
    migrationUrl = embeddedDb.url;
  }
  let catcher: SmtpCatcher | null = null;
  let sandbox: StripeSandbox | null = null;
  // Once only: Ctrl-C while the demo data is still loading reaches here from the server's
  // shutdown and again from the failed start below.
  let stopping: Promise<void> | null = null;
  let signalled = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => (signalled = true));
  const stopAll = () =>
    (stopping ??= (async () => {
      await sandbox?.stop();
      await catcher?.stop();
      await embeddedDb?.stop();
    })());
  let config: Config = loaded;
  try {
    // No SMTP_URL: mail goes to an embedded catcher that files it in dev_mailbox (/dev/mailbox).
    // No STRIPE_SECRET_KEY: the local Stripe sandbox, with the official SDK pointed at it.
    if (!loaded.STRIPE_SECRET_KEY) {
      // On the embedded default it is kept in the data folder beside the database, with its keys,
      // so unpaid bookings from before a restart can still be paid. With DATABASE_URL (tests, the
      // bench, several processes) each process's sandbox lives in memory: one file per database
      // would be written by every process with its own keys.
      const stateFile = loaded.embedded ? path.join(loaded.DATA_DIR, 'stripe-sandbox.json') : undefined;
      sandbox = createStripeSandbox({
        ...((stateFile && snapshotKeys(stateFile)) || sandboxKeys()),
        stateFile,
        webhookUrl: `http://127.0.0.1:${loaded.PORT}/api/v1/webhooks/stripe`,
        merchantName: loaded.BRAND_NAME,
      });
      const url = await sandbox.start();
      config = {
        ...loaded,
        STRIPE_SECRET_KEY: sandbox.secretKey,
        STRIPE_PUBLISHABLE_KEY: sandbox.publishableKey,
        STRIPE_WEBHOOK_SECRET: sandbox.webhookSecret,
        STRIPE_API_URL: url,
      };
    }
    if (devMailboxEnabled(config)) {
      catcher = await startSmtpCatcher(databaseUrl);
      useEmbeddedCatcher(catcher.url);
    }
    // Demo accounts only on the embedded default, never on a configured DATABASE_URL (API.md).
    // Loaded before the server listens, so ready means a family can book.
    const prepare = async (app: FastifyInstance) => {
      const now = app.clock.now();
      await seedDemoAccounts(app.db, now);
      // Reloaded at every start so the demo always sells today to Christmas Eve; holds and bookings are kept.
      await loadSeason(app.db, demoSeason(now, { days: config.DEMO_SEASON_DAYS }), now);
    };
    const server = await runServer(config, secrets, databaseUrl, {
      onClose: stopAll,
      prepare: config.embedded ? prepare : undefined,
      migrationUrl,
      tracing,
    });
    const banner = () =>
      printBanner(server.url, config.embedded, {
        stripeSandboxUrl: sandbox?.url,
        metricsUrl: server.metricsUrl,
        traces: tracing?.description,
      });
    banner();
    repeatOnEnter(banner);
  } catch (err) {
    // Ctrl-C before the start finished (embedded-postgres stops its server on the signal itself,
    // so the demo data load fails): not a failure to report.
    if (signalled) return stopAll();
    await stopAll();
    throw err;
  }
}

function printBanner(
  url: string,
  embedded: boolean,
  { stripeSandboxUrl, metricsUrl, traces }: { stripeSandboxUrl?: string; metricsUrl: string | null; traces?: string },
) {
  const lines = ['', `  Kringle is running at ${url}`, `  API docs:   ${url}/api/v1/docs`];
  const metrics = metricsUrl
    ? `${metricsUrl} (Prometheus text; docs/operations.md)`
    : 'off (METRICS_ENABLED, METRICS_PORT)';
  lines.push(
    `  Metrics:    ${metrics}`,
    `  Traces:     ${traces ?? 'off (OTEL_EXPORTER_OTLP_ENDPOINT; docs/operations.md)'}`,
  );
  if (stripeSandboxUrl)
    lines.push(`  Payments:   local Stripe sandbox at ${stripeSandboxUrl} (test card 4242 4242 4242 4242)`);
  if (embedded) {
    lines.push(`  Mailbox:    ${url}/dev/mailbox`);
    lines.push(`  SMS:        ${url}/dev/sms (texts caught here; reply STOP or START as the phone)`);
    lines.push('  Wallet:     passes signed by a generated self-signed set (openssl verifies; an iPhone refuses)');
    lines.push('  Demo accounts (password HoHoHo-2026!):');
    lines.push('    demo@kringle.test     verified customer');
    lines.push('    new@kringle.test      unverified customer');
    lines.push(`    elf@kringle.test      staff (set): the staff app at ${url}/staff (refused by the customer app)`);
    lines.push('    support@kringle.test  staff (support); sets up a second sign-in step first');
    lines.push('    manager@kringle.test  staff (manager): staff accounts too; sets up a second sign-in step first');
  }
  lines.push('  Press Enter to show this again, Ctrl-C to stop. A line per request: LOG_REQUESTS=true npm start.', '');
  console.log(lines.join('\n'));
}

/** In a terminal, Enter prints the banner again (the demo accounts and the mailbox address scrolled away). */
function repeatOnEnter(show: () => void) {
  const input = process.stdin;
  if (!input.isTTY) return;
  input.setEncoding('utf8');
  input.on('data', show);
  // Never what keeps the process alive: Ctrl-C and the shutdown go on as before.
  input.unref();
}
