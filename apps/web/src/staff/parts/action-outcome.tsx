/** What the last action did, or why it did not, in one polite live region (the Staff and Promo codes pages). */
export function ActionOutcome({ notice, problem }: { notice: string | null; problem: string | null }) {
  return (
    <div aria-live="polite">
      {notice && <p className="rounded-lg bg-pine-50 px-3 py-2 font-semibold text-pine-800">{notice}</p>}
      {problem && (
        <p role="alert" className="rounded-lg bg-festive-50 px-3 py-2 font-semibold text-festive-800">
          {problem}
        </p>
      )}
    </div>
  );
}
