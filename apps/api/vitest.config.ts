import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'api',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['./test/global-setup.ts'],
    // The API processes tests start would all ask for the metrics port (9464); the metrics tests start their own
    // listener.
    env: { TZ: 'UTC', METRICS_ENABLED: 'false' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
