import { z } from 'zod';
import { bool, int } from './env-values';

/** Metrics and traces; config.ts composes them into the environment. */
export const observabilitySettings = {
  /** Prometheus metrics on their own listener, never the public port (decision 0088); METRICS_PORT=0 turns it off. */
  METRICS_ENABLED: bool.default(true),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  METRICS_PORT: int(0, 65535).default(9464),
  /**
   * OpenTelemetry traces over OTLP/HTTP (protobuf) to this collector (decision 0095); unset, nothing
   * of OpenTelemetry loads. The exporter reads OpenTelemetry's other OTEL_EXPORTER_OTLP_* variables itself.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  /** The standard samplers; unset, parentbased_traceidratio at OTEL_TRACES_SAMPLER_ARG or 0.1 (production's rate). */
  OTEL_TRACES_SAMPLER: z
    .enum([
      'always_on',
      'always_off',
      'traceidratio',
      'parentbased_always_on',
      'parentbased_always_off',
      'parentbased_traceidratio',
    ])
    .optional(),
  /** The ratio of a traceidratio sampler, 0 to 1; unset, 1 as the standard says (0.1 when the sampler is unset too). */
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),
  /** How often finished spans are sent (ms; the standard's 5000). */
  OTEL_BSP_SCHEDULE_DELAY: int(1, 600_000).default(5000),
  OTEL_SERVICE_NAME: z.string().min(1).default('kringle-api'),
};
