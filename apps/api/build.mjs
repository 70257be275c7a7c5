// `npm run build -w apps/api`: the API as ES modules in dist/, entry dist/start.mjs, for `npm start`
// and production (decision 0015). tsx stays for dev and tests. Our workspace packages (TypeScript
// sources) go into the bundle; everything from node_modules stays external, loaded as installed.
// The entry imports tracing and then the stack each as a chunk of its own (decision 0095): tracing's
// hooks must be in place before `pg` and `http` load, and nothing of it loads when it is off.
// Chunks sit beside the entry (the API finds its folder from its modules' URLs, lib/api-root.ts).
// An other entry (under dist/, for `npm run bench:ab`) may be given: node build.mjs dist/before/start.mjs
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

const entry = process.argv[2] ?? 'dist/start.mjs';
const outdir = path.dirname(entry);
const result = await esbuild.build({
  entryPoints: { [path.basename(entry, '.mjs')]: 'src/start.ts' },
  outdir,
  outExtension: { '.js': '.mjs' },
  chunkNames: '[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'node-modules-external',
      setup(build) {
        build.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@kringle/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
// Chunks of earlier builds (their names carry a hash of their content) go, so dist/ holds one build.
const built = new Set(Object.keys(result.metafile.outputs).map((file) => path.resolve(file)));
for (const name of fs.readdirSync(outdir)) {
  const file = path.resolve(outdir, name);
  if (/-[A-Z0-9]{8}\.mjs(\.map)?$/.test(name) && !built.has(file)) fs.rmSync(file);
}
