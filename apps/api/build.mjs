// `npm run build -w apps/api`: the API as one ES module, dist/start.mjs, for `npm start` and
// production (decision 0015). tsx stays for dev and tests. Our workspace packages (TypeScript
// sources) go into the bundle; everything from node_modules stays external, loaded as installed.
// An other output file (under dist/, for `npm run bench:ab`) may be given: node build.mjs dist/before/start.mjs
import * as esbuild from 'esbuild';

await esbuild.build({
  entryPoints: ['src/start.ts'],
  outfile: process.argv[2] ?? 'dist/start.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
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
