import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'stripe-sandbox',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 15_000,
  },
});
