import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../components/ui/button';
import { Logo } from '../components/ui/logo';
import { BRAND_NAME } from '../lib/env';
import { signIn, STAFF_ONLY_MESSAGE, type StaffUser } from './staff-client';

const field = 'min-h-11 rounded-lg border border-cream-300 bg-cream-50 px-3 text-base';

/** The same accounts as the customer app; a customer's is refused with 'Staff only'. */
export function SignInPage({ onSignedIn }: { onSignedIn: (user: StaffUser) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // After a sign-out too: the tab no longer names the page that was open.
  useEffect(() => {
    document.title = `Sign in | Staff | ${BRAND_NAME}`;
  }, []);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await signIn(String(data.get('email')), String(data.get('password'))));
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Sign-in failed. Please try again.');
    } finally {
      setBusy(false);
    }
  }
  return (
    <main className="flex min-h-dvh items-center justify-center p-4">
      <form onSubmit={(e) => void submit(e)} className="w-full max-w-sm space-y-4 rounded-2xl bg-cream-50 p-6 shadow-sm ring-1 ring-cream-300">
        <div className="flex items-center gap-3">
          <Logo brandName={BRAND_NAME} decorative />
          <h1 className="text-2xl font-semibold">{BRAND_NAME} staff</h1>
        </div>
        <p className="text-ink-700">Sign in with your staff account to see the day&apos;s run sheet.</p>
        <label className="flex flex-col gap-1 font-semibold">
          E-mail
          <input name="email" type="email" autoComplete="username" required className={field} />
        </label>
        <label className="flex flex-col gap-1 font-semibold">
          Password
          <input name="password" type="password" autoComplete="current-password" required className={field} />
        </label>
        {error && (
          <div role="alert" className="rounded-lg bg-festive-50 px-3 py-2 text-festive-800">
            <p className="font-semibold">{error}</p>
            {error === STAFF_ONLY_MESSAGE && (
              <p className="text-sm">
                That is a family&apos;s account. Families book at{' '}
                <a href="/" className="font-semibold underline">
                  the booking site
                </a>
                .
              </p>
            )}
          </div>
        )}
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </main>
  );
}
