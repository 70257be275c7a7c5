/** The sandbox's test cards (apps/stripe-sandbox), and what each does. */
export const SANDBOX_TEST_CARDS = [
  { number: '4242 4242 4242 4242', outcome: 'pays' },
  { number: '4000 0025 0000 3155', outcome: 'asks for a 3-D Secure check' },
  { number: '4000 0000 0000 0002', outcome: 'is declined' },
  { number: '4000 0000 0000 9995', outcome: 'is declined: insufficient funds' },
] as const;

/** On the sandbox's payment step: every test card listed, not only the one that pays (issue 37 item 10). */
export function SandboxTestCards() {
  return (
    <div className="rounded-xl bg-gold-300/30 p-3 text-sm text-ink-900">
      <p>
        Test payments only: no real card is charged. Use any future expiry date and any security code with one of these
        test cards:
      </p>
      <ul className="mt-2 flex flex-col gap-1" aria-label="Test cards">
        {SANDBOX_TEST_CARDS.map((card) => (
          <li key={card.number}>
            <span className="font-mono font-semibold tabular-nums">{card.number}</span> {card.outcome}
          </li>
        ))}
      </ul>
    </div>
  );
}
