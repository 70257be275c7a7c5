/** An inline spinner for a card that is waiting on the server; the caller provides the words. */
export function Spinner() {
  return (
    <span
      className="size-10 animate-spin rounded-full border-4 border-cream-300 border-t-festive-700"
      aria-hidden="true"
    />
  );
}
