import { defineProject } from 'vitest/config';

// The repository's own checks that need no server: the docs against the tree.
export default defineProject({
  test: {
    name: 'tools',
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    environment: 'node',
  },
});
