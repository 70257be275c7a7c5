import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { signOut, signOutEverywhere } from '../session/staff-client';

// The nav links' look: the shared ghost button is ink on cream, unreadable on the pine header.
const headerButton =
  'inline-flex min-h-11 items-center rounded-lg px-4 font-semibold text-cream-50 underline underline-offset-4 ' +
  'hover:bg-pine-700 disabled:opacity-70';

/**
 * The staff header's account corner: who is signed in, the offer of a second step, and the two
 * ways out. "Sign out everywhere" ends the member's sessions on every device (a phone left on the
 * set, a shared laptop), then shows the sign-in here; when the server cannot be told, it says so
 * and nothing changes.
 */
export function StaffAccountActions({
  email,
  onEnrol,
  stacked,
}: {
  email: string;
  onEnrol?: () => void;
  stacked?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const everywhere = () => {
    setBusy(true);
    setProblem(null);
    signOutEverywhere().catch((err: unknown) => {
      setBusy(false);
      setProblem(err instanceof Error ? err.message : 'Signing out everywhere failed. Please try again.');
    });
  };
  return (
    <div
      className={stacked ? 'flex flex-col items-start gap-1' : 'ml-auto flex flex-wrap items-center gap-x-3 gap-y-1'}
    >
      <span className="break-all text-sm">{stacked ? `Signed in as ${email}` : email}</span>
      {onEnrol && (
        <button type="button" className={headerButton} onClick={onEnrol}>
          Add a second step
        </button>
      )}
      <button type="button" className={headerButton} onClick={everywhere} disabled={busy}>
        {busy ? 'Signing out…' : 'Sign out everywhere'}
      </button>
      <Button variant="secondary" onClick={() => void signOut()}>
        Sign out
      </Button>
      {problem && (
        <p role="alert" className="w-full rounded-lg bg-festive-50 px-3 py-2 text-sm font-semibold text-festive-800">
          {problem}
        </p>
      )}
    </div>
  );
}
