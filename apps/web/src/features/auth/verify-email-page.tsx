import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { User } from '@kringle/contracts/accounts';
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
import {
  noteVerificationFailed,
  noteVerificationSent,
  secondsUntilResend,
  useVerificationSend,
} from './verification-sent';

// This screen is in the main bundle; the change-address form loads when it is asked for.
const ChangeEmailForm = lazy(() => import('./change-email-form').then((m) => ({ default: m.ChangeEmailForm })));

/** Spec §9: the verify button reloads the page this long after reloading the user. */
const VERIFY_RELOAD_DELAY_MS = 3000;
export const RESEND_SUCCESS_FALLBACK = 'Verification email sent successfully';
export const RESEND_FAILURE_FALLBACK = 'Something went wrong';
const VERIFY_FAILURE_FALLBACK = 'We could not check your account just now. Please try again.';
/** API.md: one verification e-mail per 60 s per user. */
const RESEND_WAIT_SECONDS = 60;

/** A wait counted down once a second: the seconds left, and a function that starts a wait. */
function useCountdown(initialSeconds: () => number): [number, (seconds: number) => void] {
  const [clock, setClock] = useState(() => {
    const now = Date.now();
    return { until: now + initialSeconds() * 1000, now };
  });
  const running = clock.until > clock.now;
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setClock((c) => ({ ...c, now: Date.now() })), 1000);
    return () => window.clearInterval(timer);
  }, [running]);
  const start = (seconds: number) => {
    const now = Date.now();
    setClock({ until: now + seconds * 1000, now });
  };
  return [Math.max(0, Math.ceil((clock.until - clock.now) / 1000)), start];
}

/**
 * The only screen a signed-in but unverified user sees (spec §2), wording as the spec gives it.
 * The guard shows it in place of every protected page.
 */
export function VerifyEmailPage({ reloadPage = () => window.location.reload() }: { reloadPage?: () => void }) {
  const dispatch = useAuthDispatch();
  const navigate = useNavigate();
  const user = useAuthSelector((state) => state.auth.user);
  const email = user?.email;
  const [getMe] = useGetMeMutation();
  const [sendVerification, { isLoading: sending }] = useSendVerificationEmailMutation();
  const [checking, setChecking] = useState<'idle' | 'checking' | 'reloading' | 'not-verified'>('idle');
  const [sent, setSent] = useState(false);
  // 'Wrong address? Change it': the inline form, then the address it was changed to.
  const [changing, setChanging] = useState(false);
  const [changedTo, setChangedTo] = useState<string | null>(null);
  const changeButton = useRef<HTMLButtonElement>(null);
  // Straight after registering, the first e-mail is under a minute old: the button waits it out.
  const [waitSeconds, startWait] = useCountdown(() => secondsUntilResend(email ?? '', RESEND_WAIT_SECONDS));
  const lastSend = useVerificationSend(email ?? '');
  const reloadTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(reloadTimer.current), []);

  const verify = async () => {
    setChecking('checking');
    // A fresh ID token carries the current email_verified claim; /user/me the current user.
    await dispatch(refreshSession());
    const me = await getMe();
    // Not an answer about the account (offline, the sign-in not renewed): say what happened instead.
    if (me.error) {
      setChecking('idle');
      if (asApiError(me.error)?.status !== 429) toast.error(errorMessage(me.error, VERIFY_FAILURE_FALLBACK));
      return;
    }
    dispatch(userUpdated(me.data.user));
    // Reloading an unverified account changes nothing: say so instead of promising a reload.
    if (!me.data?.user.emailVerified) {
      setChecking('not-verified');
      return;
    }
    setChecking('reloading');
    reloadTimer.current = window.setTimeout(reloadPage, VERIFY_RELOAD_DELAY_MS);
  };

  const resend = async () => {
    const result = await sendVerification({ redirectUrl: window.location.origin });
    if (result.error) {
      const error = asApiError(result.error);
      // The base query already toasts a 429 with this same message; one toast is enough, and the
      // button waits out the server's Retry-After so no second one can stack.
      if (error?.status === 429) startWait(error.retryAfterSeconds ?? RESEND_WAIT_SECONDS);
      else {
        const message = errorMessage(result.error, RESEND_FAILURE_FALLBACK);
        toast.error(message);
        // Said on the screen too, where the sent message would be: a toast goes in seconds.
        setSent(false);
        if (email) noteVerificationFailed(email, message);
      }
      return;
    }
    track('resend_email_verification');
    toast.success(result.data.message || RESEND_SUCCESS_FALLBACK);
    setSent(true);
    if (email) noteVerificationSent(email);
    startWait(RESEND_WAIT_SECONDS);
  };

  // A typo in the address: corrected on this account (decision 0068); the new link counts as a send.
  const addressChanged = (changed: User) => {
    dispatch(userUpdated(changed));
    setChanging(false);
    setChangedTo(changed.email);
    setSent(false);
    setChecking('idle');
    noteVerificationSent(changed.email);
    startWait(RESEND_WAIT_SECONDS);
    focusChangeButton();
  };

  // The form goes: focus goes back where the family was (under the message), not to the page's top.
  const focusChangeButton = () => window.setTimeout(() => changeButton.current?.focus(), 0);
  const cancelChange = () => {
    setChanging(false);
    focusChangeButton();
  };

  const backToLogin = async (event: React.MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    track('logout');
    await dispatch(signOut());
    await navigate('/login', { replace: true });
  };

  const address = email ? <strong className="[overflow-wrap:anywhere]">{email}</strong> : 'your email address';
  return (
    <div className="flex flex-col gap-6">
      <AuthHeading title="Verify your email address">
        {/* Only what is known: "We've sent" once a send was taken (issue 53). */}
        {lastSend.state === 'sent' || lastSend.state === 'sending' ? (
          <p>
            {lastSend.state === 'sent' ? "We've sent" : "We're sending"} a verification link to {address}. Open the link
            in that email to confirm your address, then come back and press &lsquo;Verify Email address&rsquo;.
          </p>
        ) : (
          <p>
            To use your account, confirm that {address} is yours: open the link in our verification email, then come
            back and press &lsquo;Verify Email address&rsquo;.
            {lastSend.state === 'none' && <> No email from us yet? Press &lsquo;Resend Email&rsquo; below.</>}
          </p>
        )}
      </AuthHeading>
      {lastSend.state === 'failed' && !sent && (
        <FormAlert tone="error" title="We could not send the verification email">
          <p>{lastSend.message}</p>
          <p className="mt-1">Press &lsquo;Resend Email&rsquo; below to try again.</p>
        </FormAlert>
      )}

      <div className="flex flex-col gap-3">
        <Button
          onClick={verify}
          disabled={checking === 'checking' || checking === 'reloading'}
          aria-busy={checking === 'checking'}
          className="w-full"
        >
          Verify Email address
        </Button>
        {(checking === 'checking' || checking === 'reloading') && (
          <p role="status" className="text-center text-sm text-ink-700">
            {checking === 'checking' ? 'Checking your email address...' : 'Thanks! This page will reload in a moment.'}
          </p>
        )}
        {checking === 'not-verified' && (
          <FormAlert tone="error">
            Not verified yet: open the link we sent to{' '}
            {email ? <strong className="[overflow-wrap:anywhere]">{email}</strong> : 'your email address'}, then press
            &lsquo;Verify Email address&rsquo; again.
          </FormAlert>
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
        <Button
          variant="secondary"
          onClick={resend}
          disabled={sending || waitSeconds > 0}
          aria-busy={sending}
          className="w-full"
        >
          {sending ? 'Sending...' : waitSeconds > 0 ? `Resend Email (${waitSeconds} s)` : 'Resend Email'}
        </Button>
        {waitSeconds > 0 && (
          <p className="text-center text-sm text-ink-700">You can ask for another link in {waitSeconds} seconds.</p>
        )}
        {sent && (
          <FormAlert tone="success">
            We&apos;ve sent a new verification link to {email ?? 'your email address'}. If you can&apos;t see it in your
            inbox, check your spam or junk folder.
          </FormAlert>
        )}
        {changedTo && (
          <FormAlert tone="success" title="Email address changed">
            We&apos;ve sent a new verification link to <strong className="[overflow-wrap:anywhere]">{changedTo}</strong>
            . Links sent to the old address no longer work.
          </FormAlert>
        )}
        {changing && email ? (
          <Suspense fallback={<p className="text-center text-sm text-ink-700">Opening the form...</p>}>
            <ChangeEmailForm currentEmail={email} onChanged={addressChanged} onCancel={cancelChange} />
          </Suspense>
        ) : (
          <button
            ref={changeButton}
            type="button"
            onClick={() => {
              setChangedTo(null);
              setChanging(true);
            }}
            className={`${linkClasses} justify-center`}
          >
            Wrong address? Change it
          </button>
        )}
      </section>
    </div>
  );
}
