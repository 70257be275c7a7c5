import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { ROUTE_MODULES } from './route-modules.ts';

// The brand name is configuration (DESIGN.md); index.html's %VITE_BRAND_NAME% needs a value.
process.env.VITE_BRAND_NAME ||= 'Kringle';

/**
 * Writes `.br` and `.gz` beside every text asset of the build, which the API's static serving
 * sends to browsers that accept them (@fastify/static preCompressed): a phone on a slow network
 * downloads about a third of the bytes, with no compression work per request.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
  return {
    name: 'kringle-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!/\.(js|css|svg|html|txt)$/.test(file)) continue;
        const data = fs.readFileSync(file);
        if (data.length < 1024) continue; // not worth a round of decompression
        fs.writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        fs.writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

/**
 * Source maps are written ('hidden': no sourceMappingURL in the files) and then moved out of the
 * served folder into apps/web/sourcemaps/, for an operator's error tracker: in dist/ they would
 * hand anyone the whole TypeScript source (the API refuses `*.map` as well).
 */
function privateSourceMaps(): Plugin {
  let outDir = 'dist';
  let mapsDir = 'sourcemaps';
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
  return {
    name: 'kringle-private-source-maps',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      mapsDir = path.resolve(config.root, 'sourcemaps');
    },
    closeBundle() {
      fs.rmSync(mapsDir, { recursive: true, force: true });
      for (const file of walk(outDir).filter((f) => f.endsWith('.map'))) {
        const target = path.join(mapsDir, path.relative(outDir, file));
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.renameSync(file, target);
      }
    },
  };
}

/**
 * Lists, per deep link, the chunks of its lazy route modules (route-modules.ts) that the entry
 * does not already load, so the API can add `<link rel="modulepreload">` for them to index.html
 * (apps/api web-static.ts): the page chunk downloads alongside the entry instead of after it,
 * saving a round trip on a phone. A module that is not its own chunk fails the build.
 */
function routePreloads(): Plugin {
  let root = '';
  return {
    name: 'kringle-route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const closure = (files: string[], seen = new Set<string>()): Set<string> => {
        for (const file of files) {
          if (seen.has(file)) continue;
          seen.add(file);
          closure(byFile.get(file)?.imports ?? [], seen);
        }
        return seen;
      };
      const entry = closure(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName));
      const preloads: Record<string, string[]> = {};
      for (const [route, modules] of Object.entries(ROUTE_MODULES)) {
        const files = modules.map((module) => {
          const chunk = chunks.find((c) => c.facadeModuleId === path.join(root, module));
          if (!chunk) throw new Error(`route-preloads: ${module} is not its own chunk`);
          return chunk.fileName;
        });
        preloads[route] = [...closure(files)].filter((file) => !entry.has(file)).map((file) => `/${file}`);
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/route-preloads.json',
        source: JSON.stringify(preloads, null, 2),
      });
    },
  };
}

// In development the API runs separately; in production it serves dist/ itself (same origin).
const config: UserConfig = {
  plugins: [react(), tailwindcss(), routePreloads(), privateSourceMaps(), precompress()],
  server: {
    port: Number(process.env.WEB_DEV_PORT ?? 5173),
    proxy: { '/api': process.env.VITE_API_PROXY ?? 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    sourcemap: 'hidden',
    // bench/budgets reads the chunks of each route from the manifest.
    manifest: true,
    rolldownOptions: {
      // The shared contracts define zod schemas at module top level; building a schema has no
      // side effect the web app relies on, so a page that only needs a constant or a helper
      // from a contracts module does not pull zod in with it.
      treeshake: { manualPureFunctions: ['z'] },
      output: {
        // Fewer, larger first-load requests: over HTTP/1.1 a phone spends a round trip per request
        // on each of its six connections. Every package the entry loads in one chunk with the
        // preload helper ($initial: React, the router, Redux Toolkit, all loaded by the entry
        // anyway); the small modules the signed-in frame and its first pages share in one (not
        // their dependencies, which the entry already has: `includeDependenciesRecursively`
        // would pull those out of it and make /login load this chunk), instead of a dozen of
        // tiny chunks (decision 0036); and the auth pages' shared form pieces in one.
        codeSplitting: {
          groups: [
            { name: 'vendor', priority: 2, tags: ['$initial'], test: /node_modules[\\/]|vite\/preload-helper/ },
            {
              name: 'signed-in',
              priority: 1,
              includeDependenciesRecursively: false,
              test: /(packages[\\/]contracts[\\/]src[\\/](access-needs|cart|dates|money|policy|reservations)|src[\\/](features[\\/](booking-wizard[\\/](api|hold[\\/]hold-actions|checkout[\\/]cart-math)|bookings[\\/]api)|components[\\/](ui[\\/](icons|use-opened-once)|whos-coming[\\/](check-in-qr|details-summary))|lib[\\/](download-file|policy-api|waitlist-api|waitlist-words)))\.tsx?$/,
            },
            {
              name: 'auth-forms',
              priority: 1,
              test: /src\/features\/auth\/(auth-ui|form-field|password-field|lazy-resolver|use-light-form|password-strength-meter)\.tsx?$/,
            },
          ],
        },
      },
    },
  },
  worker: { format: 'es' },
};

export default defineConfig(({ command, mode }) => {
  // `vite build` would otherwise follow the caller's NODE_ENV: with NODE_ENV=development in the
  // shell it bundled React's development build (50% more JavaScript) into what `npm start`
  // serves. Vite reads NODE_ENV after loading this file, so this wins over the shell.
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';
  return config;
});
