/**
 * The support desk's place in the staff app (issue 34): its nav entry and route exist for the
 * roles that may use it; the desk itself (search, a family's page, actions) replaces this file.
 */
export function SupportSlot() {
  return (
    <section aria-labelledby="support-heading" className="flex flex-col gap-2">
      <h1 id="support-heading" className="text-2xl font-semibold">
        Support
      </h1>
      <p className="text-ink-700">The support desk is coming here: find a family and act for them.</p>
    </section>
  );
}
