/** Shown while the session is being restored, instead of flashing the login page. */
export function FullPageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="flex min-h-dvh items-center justify-center bg-cream-100">
      <span className="size-10 animate-spin rounded-full border-4 border-cream-300 border-t-festive-700" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </div>
  );
}
