import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button, buttonClasses } from '../../components/ui/button';
import { Logo } from '../../components/ui/logo';
import { BRAND_NAME } from '../../lib/env';
import { control, ErrorText } from '../parts/form-parts';
import { acceptInvitation } from '../accounts/staff-people-client';

/**
 * The contracts' PASSWORD_MIN, not imported: accounts.ts brings the common-password list into the bundle; the API
 * checks anyway.
 */
const PASSWORD_MIN = 8;

/** /staff/invite?code=: a new staff member chooses a password; the link then never works again. */
export function InvitePage({ code }: { code: string | null }) {
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const passwordId = useId();
  const repeatId = useId();
  useEffect(() => {
    document.title = `Join the staff app | Staff | ${BRAND_NAME}`;
  }, []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const password = String(data.get('password'));
    if (password !== String(data.get('repeat'))) {
      setError('The two passwords are not the same.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      setDone((await acceptInvitation(code ?? '', password)).message);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Your password could not be set.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="flex min-h-dvh items-center justify-center p-4">
      <div className="w-full max-w-sm space-y-4 rounded-2xl bg-cream-50 p-6 shadow-sm ring-1 ring-cream-300">
        <div className="flex items-center gap-3">
          <Logo brandName={BRAND_NAME} decorative />
          <h1 className="text-2xl font-semibold">Join {BRAND_NAME} staff</h1>
        </div>
        {done ? (
          <div role="status" className="space-y-4">
            <p className="font-semibold text-pine-800">{done}</p>
            <a href="/staff" className={buttonClasses('primary', 'w-full')}>
              Go to sign in
            </a>
          </div>
        ) : !code ? (
          <p role="alert" className="text-festive-800">
            This link has no invitation code. Open the link from your invitation e-mail again.
          </p>
        ) : (
          <form onSubmit={(e) => void submit(e)} className="space-y-4">
            <p className="text-ink-700">
              Choose a password for your staff account: at least {PASSWORD_MIN} characters, hard to guess.
            </p>
            <div className="flex flex-col gap-1 font-semibold">
              <label htmlFor={passwordId}>New password</label>
              <input
                id={passwordId}
                name="password"
                type="password"
                autoComplete="new-password"
                minLength={PASSWORD_MIN}
                required
                className={control}
                aria-describedby={error ? `${passwordId}-error` : undefined}
              />
            </div>
            <div className="flex flex-col gap-1 font-semibold">
              <label htmlFor={repeatId}>Repeat the password</label>
              <input
                id={repeatId}
                name="repeat"
                type="password"
                autoComplete="new-password"
                required
                className={control}
              />
            </div>
            {error && (
              <div role="alert">
                <ErrorText id={`${passwordId}-error`}>{error}</ErrorText>
              </div>
            )}
            <Button type="submit" className="w-full" disabled={busy}>
              {busy ? 'Saving…' : 'Set my password'}
            </Button>
          </form>
        )}
      </div>
    </main>
  );
}
