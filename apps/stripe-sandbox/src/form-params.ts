/** A decoded Stripe request: nested objects and arrays whose leaves are strings. */
export type Params = { [key: string]: ParamValue };
export type ParamValue = string | Params | ParamValue[];

/**
 * Decodes Stripe's form encoding (`metadata[bookingId]=b1`, `expand[0]=x`, `expand[]=x`) into
 * nested values, the way Stripe's own servers read what the SDKs send.
 */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function parseFormParams(body: string): Params {
  const root: Params = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const path = splitKey(rawKey);
    // Reject prototype keys: the parsed object is later merged into stored metadata.
    if (!path || path.some((s) => UNSAFE_KEYS.has(s))) continue;
    let node: Params = root;
    path.forEach((segment, i) => {
      const key = segment === '' ? String(Object.keys(node).length) : segment;
      if (i === path.length - 1) {
        node[key] = value;
        return;
      }
      const next = node[key];
      if (typeof next === 'object' && !Array.isArray(next)) node = next;
      else node = node[key] = {};
    });
  }
  return toArrays(root) as Params;
}

function splitKey(key: string): string[] | null {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) return null;
  const rest = [...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!);
  return [match[1]!, ...rest];
}

// Objects keyed 0..n-1 came from `a[0]`, `a[1]` (or `a[]`): turn them back into arrays.
function toArrays(value: ParamValue): ParamValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted: Params = {};
  for (const key of keys) converted[key] = toArrays(value[key]!);
  const isList = keys.length > 0 && keys.every((k, i) => k === String(i));
  return isList ? keys.map((k) => converted[k]!) : converted;
}

/** A key-order-independent fingerprint, so a replay with reordered fields still matches. */
export function fingerprint(value: ParamValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(fingerprint).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${fingerprint(value[k]!)}`).join(',')}}`;
}
