import type * as SonnerModule from 'sonner';

type Sonner = typeof SonnerModule;

let loading: Promise<Sonner> | null = null;
let loaded: Sonner | null = null;
const listeners = new Set<() => void>();

/**
 * Loads the toast library (sonner) on demand: it is not needed to show or use a page, so it
 * stays out of the first paint's JavaScript (bench/budgets). The app's toaster mounts once it
 * has arrived; sonner shows toasts raised before that as soon as the toaster subscribes.
 */
export function loadToasts(): Promise<Sonner> {
  loading ??= import('sonner').then(
    (module) => {
      loaded = module;
      listeners.forEach((listener) => listener());
      return module;
    },
    (error: unknown) => {
      loading = null; // a failed fetch (offline) is tried again by the next toast
      throw error;
    },
  );
  return loading;
}

export const loadedToasts = (): Sonner | null => loaded;

export function onToastsLoaded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function raise(kind: 'error' | 'success', message: string): Promise<void> {
  try {
    (await loadToasts()).toast[kind](message);
  } catch {
    console.warn(`[toast] could not load the toast library: ${message}`);
  }
}

/** An error toast from code on a first page's path (store, session); resolves once it is raised. */
export const toastError = (message: string) => raise('error', message);
export const toastSuccess = (message: string) => raise('success', message);
