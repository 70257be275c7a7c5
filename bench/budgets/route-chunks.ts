import fs from 'node:fs';
import path from 'node:path';

/** One entry of Vite's build manifest (dist/.vite/manifest.json). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface RouteChunks {
  /** JS the route loads before it is usable: the entry, the route's lazy modules and their static imports. */
  initial: string[];
  /**
   * JS the route's modules import on demand later (e.g. Stripe on the payment step, form validation after first paint).
   */
  deferred: string[];
}

export function readManifest(distDir: string): Manifest {
  const file = path.join(distDir, '.vite', 'manifest.json');
  if (!fs.existsSync(file))
    throw new Error(`${file} not found: build the web app first (build.manifest is on in apps/web/vite.config.ts)`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no chunk ${key}`);
    seen.add(key);
    for (const next of chunk.imports ?? []) visit(next);
  };
  keys.forEach(visit);
  return seen;
}

/**
 * The chunks of a route, from the manifest rather than hashed names. `lazyModules` are the
 * source paths (relative to apps/web) of the lazy route modules the route matches, e.g. the
 * signed-in layout and the page. A module the manifest does not list as lazily loaded fails
 * loudly: the budget must never silently measure the wrong thing after a rename.
 */
export function routeChunks(manifest: Manifest, lazyModules: string[]): RouteChunks {
  const chunkOf = (key: string): ManifestChunk => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no chunk ${key}`);
    return chunk;
  };
  const entries = Object.keys(manifest).filter((key) => chunkOf(key).isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry in the manifest, found ${entries.length}`);
  for (const module of lazyModules) {
    const chunk = manifest[module];
    if (!chunk) throw new Error(`${module} is not in the build manifest (renamed or no longer its own chunk?)`);
    if (!chunk.isDynamicEntry) throw new Error(`${module} is no longer loaded lazily: it is part of another chunk`);
  }
  const entryKeys = staticClosure(manifest, entries);
  const initialKeys = staticClosure(manifest, [...entries, ...lazyModules]);
  // Only what the route's own modules load later, not the other pages the entry can lazy-load.
  const later = [...initialKeys]
    .filter((key) => !entryKeys.has(key))
    .flatMap((key) => chunkOf(key).dynamicImports ?? []);
  const deferredKeys = [...staticClosure(manifest, later)].filter((key) => !initialKeys.has(key));
  const files = (keys: Iterable<string>) =>
    [...keys]
      .map((key) => chunkOf(key).file)
      .filter((file) => file.endsWith('.js'))
      .sort();
  return { initial: files(initialKeys), deferred: files(deferredKeys) };
}
