/** The last touches on the generated OpenAPI document, so that `redocly lint` (recommended rules) passes. */

type Operation = { operationId?: string; security?: Record<string, string[]>[] };
type Doc = { paths?: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, unknown> } };

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const API_PREFIX = '/api/v1';

const capital = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/**
 * A stable, readable id from the method and path: GET /api/v1/bookings/{id}/calendar.ics is
 * `getBookingsByIdCalendarIcs`; the probes outside /api/v1 get `Root` (getRootHealth).
 */
export function operationIdOf(method: string, path: string): string {
  const inApi = path.startsWith(`${API_PREFIX}/`);
  const rest = inApi ? path.slice(API_PREFIX.length) : path;
  const words = rest
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param) return `By${capital(param[1]!)}`;
      return segment
        .split(/[^A-Za-z0-9]+/)
        .filter(Boolean)
        .map(capital)
        .join('');
    });
  return method.toLowerCase() + (inApi ? '' : 'Root') + words.join('');
}

function refsIn(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) refsIn(v, found);
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') found.add(v);
      else refsIn(v, found);
    }
  }
}

/**
 * Every operation gets an operationId (unless its route names one) and a `security` list:
 * a route that needs nothing says so with `security: []` rather than leaving it unsaid.
 * Component schemas no operation reaches are dropped (the zod provider registers an input and
 * an output variant of each, and most are used one way only).
 */
export function finishDocument<T>(document: T): T {
  const doc = document as Doc;
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      op.operationId ??= operationIdOf(method, path);
      op.security ??= [];
    }
  }
  const schemas = doc.components?.schemas;
  if (schemas) {
    const prefix = '#/components/schemas/';
    const reached = new Set<string>();
    const pending = new Set<string>();
    refsIn(doc.paths, pending);
    while (pending.size > 0) {
      const [ref] = pending;
      pending.delete(ref!);
      if (!ref!.startsWith(prefix) || reached.has(ref!)) continue;
      reached.add(ref!);
      const next = new Set<string>();
      refsIn(schemas[ref!.slice(prefix.length)], next);
      for (const r of next) if (!reached.has(r)) pending.add(r);
    }
    for (const name of Object.keys(schemas)) if (!reached.has(prefix + name)) delete schemas[name];
  }
  return document;
}
