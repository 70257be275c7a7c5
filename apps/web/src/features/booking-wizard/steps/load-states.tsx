import { Button } from '../../../components/ui/button';

/** Calm placeholders while a list loads. */
export function LoadingList({ label, rows = 3 }: { label: string; rows?: number }) {
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-3">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} aria-hidden="true" className="h-24 animate-pulse rounded-2xl bg-cream-200" />
      ))}
    </div>
  );
}

/** A load failure in plain words, with a way to try again. */
export function LoadProblem({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-col items-start gap-3 rounded-2xl border border-festive-100 bg-festive-50 p-4 text-ink-900"
    >
      <p>We couldn't load {what}. Please check your connection and try again.</p>
      <Button variant="secondary" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
