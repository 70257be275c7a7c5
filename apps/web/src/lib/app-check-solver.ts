import type { AppCheckChallenge } from './app-check';

const SOLVE_TIMEOUT_MS = 60_000;

/** Runs one challenge in a fresh Web Worker and ends it afterwards. */
export function solveInWorker(challenge: AppCheckChallenge): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./app-check.worker.ts', import.meta.url), { type: 'module' });
    const timer = setTimeout(() => {
      worker.terminate();
      reject(new Error('app-check solver timed out'));
    }, SOLVE_TIMEOUT_MS);
    worker.onmessage = (event: MessageEvent<{ ok: boolean; payload?: string; error?: string }>) => {
      clearTimeout(timer);
      worker.terminate();
      if (event.data.ok && event.data.payload) resolve(event.data.payload);
      else reject(new Error(event.data.error ?? 'app-check solver failed'));
    };
    worker.onerror = (event) => {
      clearTimeout(timer);
      worker.terminate();
      reject(new Error(event.message || 'app-check worker error'));
    };
    worker.postMessage(challenge);
  });
}
