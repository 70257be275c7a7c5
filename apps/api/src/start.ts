import { ConfigError, loadConfig } from './config/config';
import { describeStartupFailure } from './lib/startup-failure';

/**
 * The entry point (`npm start`, dist/start.mjs). With OTEL_EXPORTER_OTLP_ENDPOINT set, tracing
 * starts first and the stack is imported after it, so its hooks see `pg` and `http` load; unset,
 * nothing of OpenTelemetry is imported (decision 0095). Both are their own chunks in the build.
 */
async function main() {
  const config = loadConfig();
  const tracing = config.OTEL_EXPORTER_OTLP_ENDPOINT
    ? (await import('./modules/operations/tracing')).startTracing(config)
    : null;
  const { startStack } = await import('./start-stack');
  await startStack(config, tracing);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(describeStartupFailure(err));
  process.exit(1);
});
