import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { track } from '../../lib/analytics';
import { asApiError, errorMessage } from './api-error';
import { useGetMeMutation, useSendVerificationEmailMutation } from './api';
import { userUpdated } from './auth-slice';
import { useAuthDispatch, useAuthSelector } from './auth-hooks';
import { AuthHeading, FormAlert, linkClasses } from './auth-ui';
import { refreshSession, signOut } from './session';

/** Spec §9: the verify button reloads the page this long after reloading the user. */
export const VERIFY_RELOAD_DELAY_MS = 3000;
export const RESEND_SUCCESS_FALLBACK = 'Verification email sent successfully';
export const RESEND_FAILURE_FALLBACK = 'Something went wrong';

/**
 * The only screen a signed-in but unverified user sees (spec §2), wording as the spec gives it.
 * The guard shows it in place of every protected page.
 */
export function VerifyEmailPage({ reloadPage = () => window.location.reload() }: { reloadPage?: () => void }) {
  const dispatch = useAuthDispatch();
  const navigate = useNavigate();
  const email = useAuthSelector((state) => state.auth.user?.email);
  const [getMe] = useGetMeMutation();
  const [sendVerification, { isLoading: sending }] = useSendVerificationEmailMutation();
  const [checking, setChecking] = useState<'idle' | 'checking' | 'reloading'>('idle');
  const [sent, setSent] = useState(false);
  const reloadTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(reloadTimer.current), []);

  const verify = async () => {
    setChecking('checking');
    // A fresh ID token carries the current email_verified claim; /user/me the current user.
    await dispatch(refreshSession());
    const me = await getMe();
    if (me.data) dispatch(userUpdated(me.data.user));
    setChecking('reloading');
    reloadTimer.current = window.setTimeout(reloadPage, VERIFY_RELOAD_DELAY_MS);
  };

  const resend = async () => {
    const result = await sendVerification({ redirectUrl: window.location.origin });
    if (result.error) {
      // The base query already toasts a 429 with this same message; one toast is enough.
      if (asApiError(result.error)?.status !== 429) toast.error(errorMessage(result.error, RESEND_FAILURE_FALLBACK));
      return;
    }
    track('resend_email_verification');
    toast.success(result.data.message || RESEND_SUCCESS_FALLBACK);
    setSent(true);
  };

  const backToLogin = async (event: React.MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    track('logout');
    await dispatch(signOut());
    await navigate('/login', { replace: true });
  };

  return (
    <div className="flex flex-col gap-6">
      <AuthHeading title="Verify your email address">
        <p>
          We&apos;ve sent a verification link to {email ? <strong className="[overflow-wrap:anywhere]">{email}</strong> : 'your email address'}. Open the link in that
          email to confirm your address, then come back and press &lsquo;Verify Email address&rsquo;.
        </p>
      </AuthHeading>

      <div className="flex flex-col gap-3">
        <Button onClick={verify} disabled={checking !== 'idle'} aria-busy={checking === 'checking'} className="w-full">
          Verify Email address
        </Button>
        {checking !== 'idle' && (
          <p role="status" className="text-center text-sm text-ink-700">
            {checking === 'checking' ? 'Checking your email address...' : 'Thanks! This page will reload in a moment.'}
          </p>
        )}
        <a href="/login" onClick={backToLogin} className={`${linkClasses} justify-center`}>
          Back to login
        </a>
      </div>

      <section aria-labelledby="resend-heading" className="flex flex-col gap-3 border-t border-cream-200 pt-5">
        <h2 id="resend-heading" className="font-sans text-base font-semibold text-ink-900">
          Did not receive the email?
        </h2>
        <p className="text-sm text-ink-700">It can take a few minutes to arrive. We can send you a new link.</p>
        <Button variant="secondary" onClick={resend} disabled={sending} aria-busy={sending} className="w-full">
          {sending ? 'Sending...' : 'Resend Email'}
        </Button>
        {sent && (
          <FormAlert tone="success">
            We&apos;ve sent a new verification link to {email ?? 'your email address'}. If you can&apos;t see it in your inbox, check your spam or junk
            folder.
          </FormAlert>
        )}
      </section>
    </div>
  );
}
