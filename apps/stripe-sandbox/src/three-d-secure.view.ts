/** Server-rendered pages of the test bank: no scripts, plain forms, readable on a phone. */

export interface ChallengePage {
  merchant: string;
  amount: number;
  currency: string;
  brand: string;
  last4: string;
}

export function challengePage(p: ChallengePage): string {
  const amount = formatAmount(p.amount, p.currency);
  return layout(
    'Test bank — 3-D Secure',
    `<p class="badge">Stripe sandbox · test mode</p>
    <h1>Test bank — 3-D Secure</h1>
    <p>${esc(p.merchant)} asks your bank to approve a payment of <strong>${esc(amount)}</strong>
      with the ${esc(brandName(p.brand))} card ending in <strong>${esc(p.last4)}</strong>.</p>
    <p class="note">This page stands in for your bank's check. No real bank is contacted and no money
      moves: choose how the bank answers.</p>
    <form method="post">
      <button type="submit" name="decision" value="approve" class="approve">Approve</button>
      <button type="submit" name="decision" value="fail" class="fail">Fail</button>
    </form>`,
  );
}

export function messagePage(title: string, message: string, link?: { href: string; label: string }): string {
  return layout(
    title,
    `<p class="badge">Stripe sandbox · test mode</p>
    <h1>${esc(title)}</h1>
    <p>${esc(message)}</p>
    ${link ? `<p><a class="approve button" href="${esc(link.href)}">${esc(link.label)}</a></p>` : ''}`,
  );
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en-AU">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(title)}</title>
<style>
  :root { color-scheme: light; }
  * { box-sizing: border-box; }
  body { margin: 0; background: #fbf7ef; color: #1f1a17;
    font: 1.0625rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { max-width: 28rem; margin: 0 auto; padding: 2rem 1.25rem; }
  h1 { font-size: 1.5rem; line-height: 1.25; margin: 0.5rem 0 1rem; }
  .badge { display: inline-block; margin: 0; padding: 0.125rem 0.5rem; border-radius: 999px;
    background: #f3e3b5; color: #4a3706; font-size: 0.875rem; font-weight: 600; }
  .note { color: #4b433d; }
  form { display: grid; gap: 0.75rem; margin-top: 1.5rem; }
  button, .button { display: flex; align-items: center; justify-content: center; width: 100%;
    min-height: 48px; padding: 0.75rem 1rem; border-radius: 0.5rem; font: inherit; font-weight: 600;
    cursor: pointer; text-decoration: none; }
  .approve { background: #1d5c3f; color: #fff; border: 2px solid #1d5c3f; }
  .fail { background: #fff; color: #9b1c1c; border: 2px solid #9b1c1c; }
  button:focus-visible, a:focus-visible { outline: 3px solid #1f1a17; outline-offset: 3px; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function formatAmount(cents: number, currency: string): string {
  const code = currency.toUpperCase();
  return `${new Intl.NumberFormat('en-AU', { style: 'currency', currency: code }).format(cents / 100)} ${code}`;
}

function brandName(brand: string): string {
  return (
    ({ visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express' } as Record<string, string>)[brand] ?? 'test'
  );
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
