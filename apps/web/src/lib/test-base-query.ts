import type { BaseQueryDeps } from './base-query';

/**
 * Base-query dependencies for component and thunk tests: a signed-in, verified customer and the
 * given fetch. Tests override what they exercise (auth state, refresh, app check).
 */
export function testBaseQueryDeps(fetchFn: typeof fetch, overrides: Partial<BaseQueryDeps> = {}): BaseQueryDeps {
  return {
    baseUrl: 'http://test/api/v1',
    fetchFn,
    selectAuth: () => ({ initialised: true, idToken: 'token', user: { emailVerified: true } }),
    whenAuthReady: async () => {},
    refreshIdToken: async () => 'token',
    signOut: async () => {},
    getAppCheckToken: async () => null,
    invalidateAppCheck: () => {},
    notifyError: () => {},
    ...overrides,
  };
}
