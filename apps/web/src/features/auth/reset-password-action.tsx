import { useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button';
import { track } from '../../lib/analytics';
import { errorCode, errorMessage, fieldErrors } from './api-error';
import { useCheckActionCodeMutation, useConfirmPasswordResetMutation } from './api';
import type { NewPasswordForm } from '@kringle/contracts/accounts';
import { useAuthDispatch, useAuthSelector } from './auth-hooks';
import { Spinner } from './auth-spinner';
import { AuthHeading, FormAlert, StateBadge } from './auth-ui';
import { ActionLinkProblem } from './action-link-problem';
import { PasswordField } from './password-field';
import { PasswordStrengthMeter } from './password-strength-meter';
import { signOut } from './session';
import { useRunOnce } from './use-run-once';
import { checkNewPasswordForm } from './auth-form-schemas';
import { useLightForm } from './use-light-form';

const checkNewPassword = async (values: NewPasswordForm) => checkNewPasswordForm(values);

type State =
  | { kind: 'checking' }
  | { kind: 'form'; email: string }
  | { kind: 'done' }
  | { kind: 'expired' }
  | { kind: 'invalid' }
  | { kind: 'failed'; message: string };

const stateFor = (error: unknown, fallback: string): State => {
  const code = errorCode(error);
  if (code === 'EXPIRED_ACTION_CODE') return { kind: 'expired' };
  if (code === 'INVALID_ACTION_CODE') return { kind: 'invalid' };
  return { kind: 'failed', message: errorMessage(error, fallback) };
};

/** mode=resetPassword: check the code (shows whose account, masked), then choose a new password. */
export function ResetPasswordAction({ oobCode }: { oobCode: string }) {
  const dispatch = useAuthDispatch();
  const signedIn = useAuthSelector((s) => s.auth.user !== null);
  const [check] = useCheckActionCodeMutation();
  const [confirm] = useConfirmPasswordResetMutation();
  const [state, setState] = useState<State>({ kind: 'checking' });
  const form = useLightForm<NewPasswordForm, NewPasswordForm>({
    check: checkNewPassword,
    defaultValues: { newPassword: '' },
  });
  const { errors, isSubmitting } = form;
  const newPassword = form.values.newPassword;

  const runCheck = async () => {
    setState({ kind: 'checking' });
    const result = await check({ oobCode });
    if (result.error) setState(stateFor(result.error, 'We could not check your link. Please try again.'));
    // A verification link opened here would be spent by the wrong form: treat it as not valid.
    else if (result.data.mode !== 'resetPassword') setState({ kind: 'invalid' });
    else setState({ kind: 'form', email: result.data.email });
  };
  useRunOnce(() => void runCheck());

  const onSubmit = form.handleSubmit(async ({ newPassword: password }) => {
    const result = await confirm({ oobCode, newPassword: password });
    if (result.error) {
      if (errorCode(result.error) === 'WEAK_PASSWORD' || errorCode(result.error) === 'VALIDATION_FAILED') {
        form.setError('newPassword', fieldErrors(result.error).newPassword ?? errorMessage(result.error));
      } else setState(stateFor(result.error, 'We could not change your password. Please try again.'));
      return;
    }
    track('password_reset');
    // The API has revoked every session of this account: drop this tab's too, so the next step is a fresh log in.
    if (signedIn) await dispatch(signOut({ callServer: false }));
    setState({ kind: 'done' });
  });

  if (state.kind === 'checking') {
    return (
      <div className="flex flex-col items-center gap-4 py-6 text-center" role="status">
        <Spinner />
        <h1 className="text-2xl font-semibold text-ink-900">Checking your reset link...</h1>
      </div>
    );
  }
  if (state.kind === 'expired' || state.kind === 'invalid')
    return <ActionLinkProblem problem={state.kind} mode="resetPassword" />;
  if (state.kind === 'failed') {
    return (
      <div className="flex flex-col gap-5">
        <AuthHeading title="We could not check your link" focus />
        <FormAlert tone="error">{state.message}</FormAlert>
        <Button onClick={() => void runCheck()} className="w-full">
          Try again
        </Button>
      </div>
    );
  }
  if (state.kind === 'done') {
    return (
      <div className="flex flex-col items-start gap-5">
        <StateBadge tone="success">✓</StateBadge>
        <AuthHeading title="Your password has been changed" focus>
          {/* The API's message repeats the title, so say what matters next instead. */}
          <p>Log in with your new password. To keep your account safe, we have signed you out everywhere else.</p>
        </AuthHeading>
        <Link to="/login" className={buttonClasses('confirm', 'w-full')}>
          Log in
        </Link>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <AuthHeading title="Choose a new password">
        <p>
          For the account <strong className="[overflow-wrap:anywhere]">{state.email}</strong>.
        </p>
      </AuthHeading>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <PasswordField
          label="New password"
          autoComplete="new-password"
          error={errors.newPassword}
          below={<PasswordStrengthMeter password={newPassword} hideProblem={!!errors.newPassword} />}
          {...form.field('newPassword')}
        />
        <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting} className="w-full">
          {isSubmitting ? 'Saving...' : 'Save new password'}
        </Button>
      </form>
    </div>
  );
}
