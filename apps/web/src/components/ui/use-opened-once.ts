import { useState } from 'react';

/**
 * True from the first time `open` is true on: a lazily loaded dialog mounts when first opened
 * (its code stays out of the page's first load) and stays mounted after, so it closes with its
 * own exit and keeps its state like an eagerly loaded one.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
