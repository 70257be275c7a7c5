import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';
import { precompress } from './vite.config.ts';

/**
 * The staff app (issue 19): its own build of staff.html into the same dist/, after the customer
 * build (`npm run build`), so the customer app's chunks, budgets and route preloads are exactly
 * what they were. It shares components/ui and lib as source, never the customer code (eslint
 * boundaries). No source maps: the customer build's private-source-maps step owns that folder.
 */
const config: UserConfig = {
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: false,
    rolldownOptions: { input: { staff: 'staff.html' } },
  },
  worker: { format: 'es' },
};

export default defineConfig(({ command, mode }) => {
  // As vite.config.ts: the production React build whatever the shell's NODE_ENV.
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';
  return config;
});
