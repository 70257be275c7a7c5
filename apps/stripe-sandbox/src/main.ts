import { createStripeSandbox, sandboxKeys } from './stripe-sandbox';

/**
 * Runs the sandbox on its own: `npm start -w apps/stripe-sandbox`. Keys not given in the
 * environment are generated and printed, so the API (or curl) can be pointed at it.
 */
async function main() {
  const env = process.env;
  const generated = sandboxKeys();
  const port = Number(env.STRIPE_SANDBOX_PORT ?? 12111);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`STRIPE_SANDBOX_PORT is not a port: ${env.STRIPE_SANDBOX_PORT}`);
  const sandbox = createStripeSandbox({
    secretKey: env.STRIPE_SANDBOX_SECRET_KEY ?? generated.secretKey,
    publishableKey: env.STRIPE_SANDBOX_PUBLISHABLE_KEY ?? generated.publishableKey,
    webhookSecret: env.STRIPE_SANDBOX_WEBHOOK_SECRET ?? generated.webhookSecret,
    webhookUrl: env.STRIPE_SANDBOX_WEBHOOK_URL || null,
    publicUrl: env.STRIPE_SANDBOX_PUBLIC_URL || undefined,
    host: env.STRIPE_SANDBOX_HOST || undefined,
    allowedOrigins: env.STRIPE_SANDBOX_ALLOWED_ORIGINS?.split(',').filter(Boolean),
    logger: env.STRIPE_SANDBOX_LOG === '1',
    onWebhookGiveUp: (event, attempt) =>
      console.error(
        `Stripe sandbox: gave up delivering ${event.type} ${event.id} (${attempt.status ?? attempt.error})`,
      ),
  });
  const url = await sandbox.start(port);
  console.log(
    [
      '',
      `  Stripe sandbox listening at ${url}`,
      `  STRIPE_SECRET_KEY=${sandbox.secretKey}`,
      `  STRIPE_PUBLISHABLE_KEY=${sandbox.publishableKey}`,
      `  STRIPE_WEBHOOK_SECRET=${sandbox.webhookSecret}`,
      `  Webhooks: ${env.STRIPE_SANDBOX_WEBHOOK_URL || 'none (set STRIPE_SANDBOX_WEBHOOK_URL)'}`,
      '',
    ].join('\n'),
  );
  const shutdown = () => void sandbox.stop().then(() => process.exit(0));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  console.error('Stripe sandbox could not start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
