import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from './button';

export interface LazyDialogButtonProps {
  children: ReactNode;
  className?: string;
  /** Loads the dialog's chunk: on hover or focus, so it is usually there by the click. */
  preload: () => Promise<unknown>;
  /** The lazily loaded dialog, mounted while open (no fallback: the button stays until it is there). */
  dialog: (close: () => void) => ReactNode;
}

/**
 * A button on a card that opens a dialog whose code loads when first wanted, not with the page
 * (decision 0034), and takes focus back once the dialog has gone (its focus trap released it on
 * unmount).
 */
export function LazyDialogButton({ children, className, preload, dialog }: LazyDialogButtonProps) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open) button.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return (
    <>
      <Button
        ref={button}
        variant="secondary"
        className={className}
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={() => void preload()}
        onFocus={() => void preload()}
        onClick={() => setOpen(true)}
      >
        {children}
      </Button>
      {open && <Suspense fallback={null}>{dialog(() => setOpen(false))}</Suspense>}
    </>
  );
}
