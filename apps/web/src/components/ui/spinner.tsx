/** Shown while the session is being restored, instead of flashing the login page. */
export function FullPageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    // The same brand splash index.html paints before the JavaScript has arrived, so the two never flicker.
    <div
      role="status"
      aria-live="polite"
      className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-cream-100"
    >
      <img src="/logo.svg" alt="" width={64} height={64} className="size-16" />
      <span
        className="size-10 animate-spin rounded-full border-4 border-cream-300 border-t-festive-700"
        aria-hidden="true"
      />
      <span className="sr-only">{label}</span>
    </div>
  );
}
