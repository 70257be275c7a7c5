import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The brand name is configuration (DESIGN.md); index.html's %VITE_BRAND_NAME% needs a value.
process.env.VITE_BRAND_NAME ||= 'Kringle';

// In development the API runs separately; in production it serves dist/ itself (same origin).
export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    port: Number(process.env.WEB_DEV_PORT ?? 5173),
    proxy: { '/api': process.env.VITE_API_PROXY ?? 'http://localhost:3000' },
  },
  build: { outDir: 'dist', sourcemap: true },
  worker: { format: 'es' },
});
