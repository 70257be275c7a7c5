import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppRouter } from './app/app';
import { initAnalytics } from './lib/analytics';
import './index.css';

initAnalytics();

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Boots in short tasks, so a slow phone can paint and take a tap in between: the modules
 * evaluate, then the router is created, then React renders in a transition, which it may
 * interrupt. In one task this blocked the main thread long enough to cost /login 3 to 9
 * Lighthouse points on a slow host (decision 0013). Not top-level await: that makes the
 * bundler split the entry into many chunks.
 */
async function boot() {
  const root = createRoot(document.getElementById('root')!);
  await nextTask();
  const router = createAppRouter();
  await nextTask();
  startTransition(() => {
    root.render(
      <StrictMode>
        <App router={router} />
      </StrictMode>,
    );
  });
}

void boot();
