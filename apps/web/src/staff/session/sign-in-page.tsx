import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { Logo } from '../../components/ui/logo';
import { ApiProblem } from '../../lib/api-error';
import { BRAND_NAME } from '../../lib/env';
import { signIn, signInSecondStep, STAFF_ONLY_MESSAGE, type StaffUser } from './staff-client';

const field = 'min-h-11 rounded-lg border border-cream-300 bg-cream-50 px-3 text-base';

/**
 * The same accounts as the customer app; a customer's is refused with 'Staff only'. An account
 * with a second factor (decision 0050) is asked next for the code from its app, or a recovery code.
 */
export function SignInPage({ onSignedIn, notice }: { onSignedIn: (user: StaffUser) => void; notice?: string | null }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [mfaToken, setMfaToken] = useState<string | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  // After a sign-out too: the tab no longer names the page that was open.
  useEffect(() => {
    document.title = `${mfaToken ? 'Sign-in code' : 'Sign in'} | Staff | ${BRAND_NAME}`;
    if (mfaToken) codeRef.current?.focus();
  }, [mfaToken]);

  async function attempt(work: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      const message = err instanceof Error ? err.message : 'Sign-in failed. Please try again.';
      setError(message);
    } finally {
      setBusy(false);
    }
  }
  function submitPassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    void attempt(async () => {
      const step = await signIn(String(data.get('email')), String(data.get('password')));
      if (step.kind === 'signed-in') onSignedIn(step.user);
      else setMfaToken(step.mfaToken);
    });
  }
  function submitCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code')).trim();
    void attempt(async () => {
      try {
        onSignedIn(await signInSecondStep(mfaToken!, code));
      } catch (err) {
        // The token is spent or expired: back to the password.
        if (err instanceof ApiProblem && err.code === 'UNAUTHENTICATED') setMfaToken(null);
        throw err;
      }
    });
  }

  return (
    <main className="flex min-h-dvh items-center justify-center p-4">
      <form
        onSubmit={mfaToken ? submitCode : submitPassword}
        className="w-full max-w-sm space-y-4 rounded-2xl bg-cream-50 p-6 shadow-sm ring-1 ring-cream-300"
      >
        <div className="flex items-center gap-3">
          <Logo brandName={BRAND_NAME} decorative />
          <h1 className="text-2xl font-semibold">{BRAND_NAME} staff</h1>
        </div>
        {notice && !mfaToken && (
          <p role="status" className="rounded-lg bg-pine-50 px-3 py-2 font-semibold text-pine-800">
            {notice}
          </p>
        )}
        {mfaToken ? (
          <>
            <p className="text-ink-700">
              Enter the 6-digit code from your authenticator app. Lost your phone? Enter one of your recovery codes
              instead.
            </p>
            <label className="flex flex-col gap-1 font-semibold">
              Code
              <input
                ref={codeRef}
                key="code"
                name="code"
                inputMode="text"
                autoComplete="one-time-code"
                required
                maxLength={20}
                className={field}
              />
            </label>
          </>
        ) : (
          <>
            <p className="text-ink-700">Sign in with your staff account to see the day&apos;s run sheet.</p>
            <label className="flex flex-col gap-1 font-semibold">
              E-mail
              <input name="email" type="email" autoComplete="username" required className={field} />
            </label>
            <label className="flex flex-col gap-1 font-semibold">
              Password
              <input name="password" type="password" autoComplete="current-password" required className={field} />
            </label>
          </>
        )}
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
          {busy ? 'Signing in…' : mfaToken ? 'Continue' : 'Sign in'}
        </Button>
        {mfaToken && (
          <Button variant="ghost" className="w-full" onClick={() => setMfaToken(null)}>
            Start again
          </Button>
        )}
      </form>
    </main>
  );
}
