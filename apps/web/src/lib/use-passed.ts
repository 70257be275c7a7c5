import { useEffect, useState } from 'react';
import { serverNow } from './server-clock';

/** Whether an instant (ISO) has passed on the server's clock; re-renders at that moment. False for null. */
export function usePassed(at: string | null | undefined): boolean {
  const [, tick] = useState(0);
  const end = at ? Date.parse(at) : null;
  const passed = end !== null && end <= serverNow();
  useEffect(() => {
    if (end === null || passed) return;
    const timer = setTimeout(() => tick((n) => n + 1), Math.min(end - serverNow() + 50, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [end, passed]);
  return passed;
}
