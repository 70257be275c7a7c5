import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./src/test-setup.ts'],
    env: { TZ: 'UTC' },
    // Above test-setup.ts's 5 s asyncUtilTimeout, so a slow wait reports what it waited for.
    testTimeout: 15_000,
  },
});
