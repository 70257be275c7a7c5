import { useEffect, useRef } from 'react';

/**
 * Runs `effect` once per mounted component, even under StrictMode's double effect run in
 * development: action codes are single-use, so a second call would report a used link.
 */
export function useRunOnce(effect: () => void): void {
  const ran = useRef(false);
  useEffect(() => {
    if (ran.current) return;
    ran.current = true;
    effect();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- deliberately once
  }, []);
}
