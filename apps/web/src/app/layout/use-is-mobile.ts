import { useEffect, useState } from 'react';
import { MOBILE_BREAKPOINT_PX, RESIZE_THROTTLE_MS } from '../../lib/env';
import { throttle } from '../../lib/throttle';

const isNarrow = () => window.innerWidth <= MOBILE_BREAKPOINT_PX;

/** Spec §9: 800 px or less is "mobile"; resize handling is throttled at 2000 ms. */
export function useIsMobile(): boolean {
  const [mobile, setMobile] = useState(isNarrow);
  useEffect(() => {
    const onResize = throttle(() => setMobile(isNarrow()), RESIZE_THROTTLE_MS);
    window.addEventListener('resize', onResize);
    return () => {
      onResize.cancel();
      window.removeEventListener('resize', onResize);
    };
  }, []);
  return mobile;
}
