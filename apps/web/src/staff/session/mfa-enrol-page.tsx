import type { MfaSetupResponse } from '@kringle/contracts/staff-accounts';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { BRAND_NAME } from '../../lib/env';
import { confirmMfa, startMfaSetup } from '../accounts/staff-people-client';
import { control } from '../parts/form-parts';

/**
 * Enrolling the second factor (decision 0050), required of managers and support before anything
 * else: scan the QR code (or type the secret), confirm with a first code, then the ten recovery
 * codes, shown this once, with an explicit "I have saved them" before going on.
 */
export function MfaEnrolPage({
  onEnrolled,
  onSignOut,
  onNotNow,
}: {
  onEnrolled: () => void;
  onSignOut: () => void;
  onNotNow?: () => void;
}) {
  const [setup, setSetup] = useState<MfaSetupResponse | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const codeId = useId();

  useEffect(() => {
    document.title = `Set up your sign-in code | Staff | ${BRAND_NAME}`;
    // Each call makes a new secret: only the last one asked for is shown (StrictMode asks twice).
    let live = true;
    startMfaSetup()
      .then(async (s) => {
        if (!live) return;
        setSetup(s);
        const { default: QRCode } = await import('qrcode');
        setQr(await QRCode.toDataURL(s.otpauthUrl, { margin: 1, width: 220 }));
      })
      .catch((err: unknown) => live && setError(err instanceof Error ? err.message : 'The set-up could not start.'));
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    if (codes) headingRef.current?.focus();
  }, [codes]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code')).trim();
    setBusy(true);
    setError(null);
    try {
      setCodes((await confirmMfa(code)).recoveryCodes);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'That code did not work.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col gap-5 p-4">
      {codes ? (
        <section
          aria-labelledby="codes-heading"
          className="flex flex-col gap-4 rounded-2xl bg-cream-50 p-6 ring-1 ring-cream-300"
        >
          <h1 id="codes-heading" ref={headingRef} tabIndex={-1} className="text-2xl font-semibold">
            Save your recovery codes
          </h1>
          <p className="text-ink-700">
            Each code signs you in once if you lose your phone. They are shown only now: print them or keep them in a
            password manager.
          </p>
          <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 font-mono text-lg">
            {codes.map((c) => (
              <li key={c} className="rounded-lg bg-cream-100 px-3 py-2 text-center">
                {c}
              </li>
            ))}
          </ul>
          <label className="flex min-h-11 items-center gap-3 font-semibold">
            <input type="checkbox" className="size-6" checked={saved} onChange={(e) => setSaved(e.target.checked)} />I
            have saved them
          </label>
          <Button variant="confirm" disabled={!saved} onClick={onEnrolled}>
            Continue to the staff app
          </Button>
        </section>
      ) : (
        <form
          onSubmit={(e) => void submit(e)}
          className="flex flex-col gap-4 rounded-2xl bg-cream-50 p-6 ring-1 ring-cream-300"
        >
          <h1 className="text-2xl font-semibold">Set up your sign-in code</h1>
          <p className="text-ink-700">
            {onNotNow
              ? 'A second sign-in step keeps families’ details safe if your password leaks.'
              : 'Your role can see families’ details, so your account needs a second sign-in step.'}{' '}
            Scan the code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).
          </p>
          {qr && (
            <img
              src={qr}
              alt="QR code to add this account to an authenticator app"
              width={220}
              height={220}
              className="self-center rounded-lg bg-white p-2"
            />
          )}
          {setup && (
            <p className="text-sm text-ink-700">
              Can&apos;t scan? Type this key into the app:{' '}
              <code className="break-all rounded bg-cream-100 px-1 font-mono text-base text-ink-900">
                {setup.secret}
              </code>
            </p>
          )}
          <div className="flex flex-col gap-1 font-semibold">
            <label htmlFor={codeId}>Code from the app</label>
            <input
              id={codeId}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="\d{6}"
              maxLength={6}
              required
              className={control}
              aria-describedby={error ? `${codeId}-error` : undefined}
            />
          </div>
          {error && (
            <p
              id={`${codeId}-error`}
              role="alert"
              className="rounded-lg bg-festive-50 px-3 py-2 font-semibold text-festive-800"
            >
              {error}
            </p>
          )}
          <Button type="submit" disabled={busy || !setup}>
            {busy ? 'Checking…' : 'Turn on the second step'}
          </Button>
          {onNotNow ? (
            <Button variant="ghost" onClick={onNotNow}>
              Not now
            </Button>
          ) : (
            <Button variant="ghost" onClick={onSignOut}>
              Sign out
            </Button>
          )}
        </form>
      )}
    </main>
  );
}
