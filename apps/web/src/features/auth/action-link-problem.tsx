import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Button, buttonClasses } from '../../components/ui/button';
import { track } from '../../lib/analytics';
import { asApiError, errorMessage } from './api-error';
import { useSendVerificationEmailMutation } from './api';
import { useAuthSelector } from './auth-hooks';
import { AuthHeading, FormAlert, StateBadge } from './auth-ui';
import type { ActionMode } from '@kringle/contracts/accounts';

export type LinkProblem = 'expired' | 'invalid' | 'incomplete';

const TITLES: Record<LinkProblem, string> = {
  expired: 'This link has expired',
  invalid: 'This link has been used or is not valid',
  incomplete: 'This link is not complete',
};

function explanation(problem: LinkProblem, mode: ActionMode | null): string {
  const what =
    mode === 'resetPassword'
      ? 'Password reset links work once, for one hour'
      : 'Verification links work once, for 24 hours';
  if (problem === 'expired') return `${what}. Ask for a new link and use the newest email.`;
  if (problem === 'invalid')
    return mode === 'resetPassword'
      ? 'Each reset link works only once, and a newer link replaces older ones. Ask for a new link and use the ' +
          'newest email.'
      : 'Each verification link works only once. If you have already verified your address, you are all set; ' +
          'otherwise ask for a new link.';
  return 'Part of the link seems to be missing. Try opening it again from the email, or ask for a new link.';
}

/** Expired, used or broken e-mail links: say so plainly and offer the way to a new link. */
export function ActionLinkProblem({ problem, mode }: { problem: LinkProblem; mode: ActionMode | null }) {
  const user = useAuthSelector((state) => state.auth.user);
  const [sendVerification, { isLoading: sending }] = useSendVerificationEmailMutation();
  const [sent, setSent] = useState(false);

  const resend = async () => {
    const result = await sendVerification({ redirectUrl: window.location.origin });
    if (result.error) {
      if (asApiError(result.error)?.status !== 429) toast.error(errorMessage(result.error, 'Something went wrong'));
      return;
    }
    track('resend_email_verification');
    toast.success(result.data.message || 'Verification email sent successfully');
    setSent(true);
  };

  let action: React.ReactNode;
  if (mode === 'resetPassword' || (mode === null && !user)) {
    // /forgot-password is for guests only; a signed-in user already has access.
    action = user ? (
      <Link to="/bookings" className={buttonClasses('primary', 'w-full')}>
        Go to my bookings
      </Link>
    ) : (
      <Link to="/forgot-password" className={buttonClasses('primary', 'w-full')}>
        Ask for a new reset link
      </Link>
    );
  } else if (user && !user.emailVerified) {
    action = (
      <Button onClick={resend} disabled={sending || sent} aria-busy={sending} className="w-full">
        {sending ? 'Sending...' : 'Send me a new link'}
      </Button>
    );
  } else if (user) {
    action = (
      <Link to="/bookings" className={buttonClasses('primary', 'w-full')}>
        Go to my bookings
      </Link>
    );
  } else {
    action = (
      <Link to="/login" className={buttonClasses('primary', 'w-full')}>
        Log in to get a new link
      </Link>
    );
  }

  // A used verification link, opened by someone already verified, is not a problem at all.
  if (problem === 'invalid' && mode === 'verifyEmail' && user?.emailVerified) {
    return (
      <div className="flex flex-col items-start gap-5">
        <StateBadge tone="success">✓</StateBadge>
        <AuthHeading title="Your email address is already verified" focus>
          <p>This link has been used already, and there is nothing more to do.</p>
        </AuthHeading>
        {action}
      </div>
    );
  }

  return (
    <div className="flex flex-col items-start gap-5">
      <StateBadge tone="warning">!</StateBadge>
      <AuthHeading title={TITLES[problem]} focus>
        <p>{explanation(problem, mode)}</p>
      </AuthHeading>
      {sent && (
        <FormAlert tone="success" className="w-full">
          We&apos;ve sent a new verification link to {user?.email}. If you can&apos;t see it, check your spam or junk
          folder.
        </FormAlert>
      )}
      {action}
      {!user && mode !== 'resetPassword' && (
        <p className="text-sm text-ink-700">
          After you log in you can ask for a new verification email with &lsquo;Resend Email&rsquo;.
        </p>
      )}
    </div>
  );
}
