import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button';
import { Spinner } from './auth-spinner';
import { track } from '../../lib/analytics';
import { errorCode, errorMessage } from './api-error';
import { useVerifyEmailMutation } from './api';
import { useAuthDispatch, useAuthSelector } from './auth-hooks';
import { AuthHeading, FormAlert, StateBadge } from './auth-ui';
import { ActionLinkProblem } from './action-link-problem';
import { refreshSession } from './session';
import { useRunOnce } from './use-run-once';

type State =
  | { kind: 'verifying' }
  | { kind: 'verified' }
  | { kind: 'expired' }
  | { kind: 'invalid' }
  | { kind: 'failed'; message: string };

/** mode=verifyEmail: spend the code, then show where to go next. */
export function VerifyEmailAction({ oobCode }: { oobCode: string }) {
  const dispatch = useAuthDispatch();
  const navigate = useNavigate();
  const signedIn = useAuthSelector((state) => state.auth.user !== null);
  const [verifyEmail] = useVerifyEmailMutation();
  const [state, setState] = useState<State>({ kind: 'verifying' });
  const [continuing, setContinuing] = useState(false);

  const run = async () => {
    setState({ kind: 'verifying' });
    const result = await verifyEmail({ oobCode });
    if (result.error) {
      const code = errorCode(result.error);
      if (code === 'EXPIRED_ACTION_CODE') setState({ kind: 'expired' });
      else if (code === 'INVALID_ACTION_CODE') setState({ kind: 'invalid' });
      else
        setState({
          kind: 'failed',
          message: errorMessage(result.error, 'We could not check your link. Please try again.'),
        });
      return;
    }
    track('email_verification', { method: 'link' });
    setState({ kind: 'verified' });
  };
  useRunOnce(() => void run());

  // A signed-in user's ID token still says email_verified=false: refresh it before going on.
  const continueToBookings = async () => {
    setContinuing(true);
    await dispatch(refreshSession());
    await navigate('/bookings', { replace: true });
  };

  if (state.kind === 'verifying') {
    return (
      <div className="flex flex-col items-center gap-4 py-6 text-center" role="status">
        <Spinner />
        <h1 className="text-2xl font-semibold text-ink-900">Verifying your email address...</h1>
      </div>
    );
  }
  if (state.kind === 'expired' || state.kind === 'invalid')
    return <ActionLinkProblem problem={state.kind} mode="verifyEmail" />;
  if (state.kind === 'failed') {
    return (
      <div className="flex flex-col gap-5">
        <AuthHeading title="We could not check your link" focus />
        <FormAlert tone="error">{state.message}</FormAlert>
        <Button onClick={() => void run()} className="w-full">
          Try again
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-start gap-5">
      <StateBadge tone="success">✓</StateBadge>
      <AuthHeading title="Your email address is verified" focus>
        <p>Thank you for confirming it. You&apos;re all set to book your photos with Santa.</p>
      </AuthHeading>
      {signedIn ? (
        <Button
          variant="confirm"
          onClick={continueToBookings}
          disabled={continuing}
          aria-busy={continuing}
          className="w-full"
        >
          {continuing ? 'Opening your bookings...' : 'Continue to my bookings'}
        </Button>
      ) : (
        <Link to="/login" className={buttonClasses('confirm', 'w-full')}>
          Log in
        </Link>
      )}
    </div>
  );
}
