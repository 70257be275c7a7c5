import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger';

/**
 * A request's logger, bound to its request id, built when it first writes. With the access log at
 * the edge (decision 0012) most requests never log, and building a pino child (bindings,
 * redaction) for each cost a few percent of a drop-day hold. A class, not closures per request.
 */
class LazyChildLogger {
  private built: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly opts: ChildLoggerOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    return (this.built ??= this.parent.child(this.bindings, this.opts));
  }

  get level(): string {
    return this.built?.level ?? this.opts.level ?? this.parent.level;
  }
  set level(value: string) {
    this.real.level = value;
  }
  fatal(...args: unknown[]) {
    (this.real.fatal as (...a: unknown[]) => void)(...args);
  }
  error(...args: unknown[]) {
    (this.real.error as (...a: unknown[]) => void)(...args);
  }
  warn(...args: unknown[]) {
    (this.real.warn as (...a: unknown[]) => void)(...args);
  }
  info(...args: unknown[]) {
    (this.real.info as (...a: unknown[]) => void)(...args);
  }
  debug(...args: unknown[]) {
    (this.real.debug as (...a: unknown[]) => void)(...args);
  }
  trace(...args: unknown[]) {
    (this.real.trace as (...a: unknown[]) => void)(...args);
  }
  silent() {}
  child(bindings: Bindings, opts?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, opts);
  }
}

/** Fastify's `childLoggerFactory`. */
export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  opts: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, opts) as unknown as FastifyBaseLogger;
}
