import type { Storage } from 'redux-persist';

/**
 * localStorage for redux-persist. Written here because redux-persist's own
 * `lib/storage` is CommonJS and arrives as `{ default }` under Vite's ESM interop.
 * Storage failures (private mode, quota) are swallowed: persistence is a convenience.
 */
export const persistStorage: Storage = {
  getItem: async (key: string) => {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  setItem: async (key: string, value: string) => {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      // ignore
    }
  },
  removeItem: async (key: string) => {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // ignore
    }
  },
};
