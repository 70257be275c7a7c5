import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROUTE_MODULES } from '../../apps/web/route-modules';
import { readManifest, routeChunks } from './route-chunks';

/**
 * Issue 7's JavaScript budgets, gzipped, in size-limit's units (1 kB = 1000 bytes, the stricter
 * reading of "KB"). `lazyModules` are the lazy route modules the route matches, as the build
 * manifest names them: the same list the build preloads (apps/web/route-modules.ts).
 */
export const ROUTE_BUDGETS = [
  { route: '/login', limit: '150 kB', lazyModules: lazyModulesOf('/login') },
  { route: '/create-booking', limit: '200 kB', lazyModules: lazyModulesOf('/create-booking') },
];

function lazyModulesOf(route: string): readonly string[] {
  const modules = ROUTE_MODULES[route];
  if (!modules) throw new Error(`apps/web/route-modules.ts lists no modules for ${route}`);
  return modules;
}

/** Stripe.js and its React bindings load on the payment step only (issue 7). */
const PAYMENT_STEP_MODULE = 'src/components/card-payment/stripe-payment-element.tsx';

export interface SizeResult {
  route: string;
  limit: string;
  limitBytes: number;
  /** Gzipped bytes of the initial JS (size-limit's figure). */
  bytes: number;
  passed: boolean;
  files: { file: string; gzipBytes: number }[];
  /** Loaded later by the route's own modules (not part of the budget, reported for honesty). */
  deferred: { file: string; gzipBytes: number }[];
}

const SIZE_LIMIT_BIN = path.resolve(import.meta.dirname, '../../node_modules/size-limit/bin.js');

/** size-limit's own gzip figure for each file set, from a generated config (exact file lists). */
function runSizeLimit(
  checks: { name: string; path: string[]; limit?: string }[],
): { name: string; size: number; passed?: boolean }[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kringle-size-limit-'));
  try {
    const config = path.join(dir, '.size-limit.json');
    fs.writeFileSync(
      config,
      JSON.stringify(
        checks.map((check) => ({ ...check, gzip: true })),
        null,
        2,
      ),
    );
    // Run from bench/, whose package.json lists @size-limit/file (size-limit finds plugins there).
    const run = spawnSync(process.execPath, [SIZE_LIMIT_BIN, '--config', config, '--json'], {
      cwd: path.resolve(import.meta.dirname, '..'),
      encoding: 'utf8',
    });
    const out = run.stdout.trim();
    if (!out.startsWith('[')) throw new Error(`size-limit failed (exit ${run.status}): ${run.stderr || out}`);
    return JSON.parse(out) as { name: string; size: number; passed?: boolean }[];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function checkSizes(distDir: string): SizeResult[] {
  const manifest = readManifest(distDir);
  const routes = ROUTE_BUDGETS.map((budget) => ({ ...budget, chunks: routeChunks(manifest, [...budget.lazyModules]) }));

  const stripeFile = manifest[PAYMENT_STEP_MODULE]?.file;
  if (!stripeFile)
    throw new Error(`${PAYMENT_STEP_MODULE} is not its own chunk: Stripe must load on the payment step only`);
  for (const route of routes) {
    if (route.chunks.initial.includes(stripeFile))
      throw new Error(`${route.route} loads the Stripe payment element up front`);
  }

  const abs = (file: string) => path.join(distDir, file);
  const perFile = [...new Set(routes.flatMap((r) => [...r.chunks.initial, ...r.chunks.deferred]))];
  const checks = [
    ...routes.map((r) => ({ name: r.route, path: r.chunks.initial.map(abs), limit: r.limit })),
    ...perFile.map((file) => ({ name: file, path: [abs(file)] })),
  ];
  const results = new Map(runSizeLimit(checks).map((r) => [r.name, r]));
  const sizeOf = (file: string) => ({ file, gzipBytes: results.get(file)?.size ?? NaN });

  return routes.map((r) => {
    const total = results.get(r.route);
    if (!total) throw new Error(`size-limit gave no result for ${r.route}`);
    const limitBytes = Number.parseFloat(r.limit) * 1000;
    return {
      route: r.route,
      limit: r.limit,
      limitBytes,
      bytes: total.size,
      passed: total.passed ?? total.size <= limitBytes,
      files: r.chunks.initial.map(sizeOf),
      deferred: r.chunks.deferred.map(sizeOf),
    };
  });
}

/**
 * The sizes only mean something for React's production build: a development build (what a shell
 * with NODE_ENV=development once produced) is 50% larger. Only the production build replaces
 * React's error messages with "Minified React error #n" links, so the marker tells them apart.
 */
export function checkProductionReact(distDir: string): { passed: boolean; detail: string } {
  const assets = path.join(distDir, 'assets');
  const files = fs.readdirSync(assets).filter((f) => f.endsWith('.js'));
  const withReactDom = files.filter((f) => fs.readFileSync(path.join(assets, f), 'utf8').includes('react-dom'));
  const production = files.some((f) =>
    fs.readFileSync(path.join(assets, f), 'utf8').includes('Minified React error #'),
  );
  return production
    ? { passed: true, detail: "production (React's minified error messages present)" }
    : {
        passed: false,
        detail:
          `development build of React in ` +
          `${withReactDom.join(', ') || 'the bundle'}: build without NODE_ENV=development leaking in`,
      };
}
