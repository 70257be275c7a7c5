import { defineConfig } from 'vitest/config';

// One run for every workspace: unit tests of contracts and web, the docs checked against the tree (tools),
// integration tests of the API
// against a real PostgreSQL started by the API project's global setup.
export default defineConfig({
  test: {
    projects: ['packages/contracts', 'apps/api', 'apps/web', 'apps/stripe-sandbox', 'tools'],
  },
});
