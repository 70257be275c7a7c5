import type { ParamValue, Params } from './form-params';
import { invalidParam, missingParam, unknownParam } from './stripe-errors';

export type Metadata = Record<string, string>;

/**
 * Typed access to a decoded request, with Stripe's validation errors. Every endpoint lists the
 * fields it accepts; anything else is refused like Stripe refuses an unknown parameter, so a
 * caller never believes the sandbox honoured a field it ignores.
 */
export class ParamsReader {
  constructor(
    private readonly params: Params,
    allowed: readonly string[],
  ) {
    const accepted = new Set([...allowed, 'expand']);
    for (const key of Object.keys(params)) if (!accepted.has(key)) throw unknownParam(key);
  }

  has(name: string): boolean {
    return this.params[name] !== undefined;
  }

  raw(name: string): ParamValue | undefined {
    return this.params[name];
  }

  string(name: string, opts: { required: true; max?: number }): string;
  string(name: string, opts?: { required?: boolean; max?: number }): string | undefined;
  string(name: string, opts: { required?: boolean; max?: number } = {}): string | undefined {
    const value = this.params[name];
    if (value === undefined) {
      if (opts.required) throw missingParam(name);
      return undefined;
    }
    if (typeof value !== 'string') throw invalidParam(name, `Invalid string: ${describe(value)}`);
    if (opts.max !== undefined && value.length > opts.max) {
      throw invalidParam(name, `Invalid string: ${value.slice(0, 20)}...; must be at most ${opts.max} characters`);
    }
    return value;
  }

  integer(name: string, opts: { required: true }): number;
  integer(name: string, opts?: { required?: boolean }): number | undefined;
  integer(name: string, opts: { required?: boolean } = {}): number | undefined {
    const value = this.string(name, opts);
    if (value === undefined) return undefined;
    if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
      throw invalidParam(name, `Invalid integer: ${value}`, 'parameter_invalid_integer');
    }
    return Number(value);
  }

  boolean(name: string): boolean | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (value !== 'true' && value !== 'false') throw invalidParam(name, `Invalid boolean: ${value}`);
    return value === 'true';
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!(values as readonly string[]).includes(value)) {
      throw invalidParam(name, `Invalid ${name}: must be one of ${values.join(', ')}`);
    }
    return value as T;
  }

  object(name: string): ParamsReaderSource | undefined {
    const value = this.params[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value === 'string' || Array.isArray(value)) throw invalidParam(name, `Invalid hash`);
    return { params: value, path: name };
  }

  stringList(name: string): string[] {
    const value = this.params[name];
    if (value === undefined) return [];
    const list = Array.isArray(value) ? value : [value];
    if (!list.every((v): v is string => typeof v === 'string')) throw invalidParam(name, 'Invalid array');
    return list;
  }

  /**
   * Stripe's metadata: string values, at most 50 keys of 40 characters, values of 500;
   * `metadata=` clears it (null), an empty value removes that key on update (undefined value).
   */
  metadata(): Record<string, string | undefined> | null | undefined {
    const value = this.params.metadata;
    if (value === undefined) return undefined;
    if (value === '') return null;
    if (typeof value === 'string' || Array.isArray(value)) throw invalidParam('metadata', 'Invalid hash');
    const entries = Object.entries(value);
    if (entries.length > 50) throw invalidParam('metadata', 'You can have at most 50 metadata keys.');
    const out: Record<string, string | undefined> = {};
    for (const [key, v] of entries) {
      if (typeof v !== 'string') throw invalidParam(`metadata[${key}]`, 'Metadata values must be strings.');
      if (key.length > 40) throw invalidParam('metadata', `Metadata keys can be at most 40 characters: ${key}`);
      if (v.length > 500) throw invalidParam(`metadata[${key}]`, 'Metadata values can be at most 500 characters.');
      out[key] = v === '' ? undefined : v;
    }
    return out;
  }
}

export interface ParamsReaderSource {
  params: Params;
  path: string;
}

/** Reads a nested hash (`payment_method_data[card]`) with the same rules and full param names. */
export function nested(source: ParamsReaderSource, allowed: readonly string[]): ParamsReader {
  const prefixed: Params = {};
  for (const [key, value] of Object.entries(source.params)) prefixed[`${source.path}[${key}]`] = value;
  return new ParamsReader(
    prefixed,
    allowed.map((k) => `${source.path}[${k}]`),
  );
}

/** Applies a metadata update the way Stripe merges it. */
export function mergeMetadata(current: Metadata, update: Record<string, string | undefined> | null): Metadata {
  if (update === null) return {};
  const next = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  return next;
}

function describe(value: ParamValue): string {
  return Array.isArray(value) ? 'array' : typeof value === 'object' ? 'hash' : value;
}
