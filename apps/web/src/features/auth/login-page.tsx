import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { track } from '../../lib/analytics';
import { errorCode, errorMessage } from './api-error';
import { useSignInMutation } from './api';
import { AuthHeading, FormAlert, linkClasses } from './auth-ui';
import type { SignInFormInput } from './auth-form-schemas';
import { useAuthDispatch } from './auth-hooks';
import { FormField } from '../../components/ui/form-field';
import { preloadOnIntent } from './preload-on-intent';
import { useLightForm } from './use-light-form';
import { PasswordField } from './password-field';
import { setSession, STAFF_REFUSED_MESSAGE } from './session';

// The schema (and zod) load when the user starts on the form; a check made before that waits for them.
const loadCheck = () => import('./auth-form-schemas').then((m) => m.checkSignInForm);
const validation = { preload: loadCheck };
const check = async (values: SignInFormInput) => (await loadCheck())(values);

type Problem = { kind: 'staff' } | { kind: 'credentials'; message: string } | { kind: 'other'; message: string };

/** /login: e-mail and password. Success hands the session to setSession; the guard then moves on to /. */
export function LoginPage() {
  const dispatch = useAuthDispatch();
  const [signIn] = useSignInMutation();
  const [problem, setProblem] = useState<Problem | null>(null);
  // Not react-hook-form: the same onTouched checks without its 12 kB on the first page (use-light-form.ts).
  const form = useLightForm<SignInFormInput, SignInFormInput>({ check, defaultValues: { email: '', password: '' } });
  const { errors, isSubmitting } = form;

  const onSubmit = form.handleSubmit(async (values) => {
    setProblem(null);
    const result = await signIn(values);
    if (result.error) {
      const code = errorCode(result.error);
      setProblem(
        code === 'INVALID_CREDENTIALS'
          ? { kind: 'credentials', message: errorMessage(result.error) }
          : { kind: 'other', message: errorMessage(result.error, 'We could not log you in. Please try again.') },
      );
      return;
    }
    // Only a staff account is asked for a second step: refused here as a staff token is.
    if ('mfaRequired' in result.data) {
      setProblem({ kind: 'staff' });
      return;
    }
    // Staff tokens are refused inside setSession (signed out, purged); said once, here.
    const accepted = await dispatch(setSession({ ...result.data, refusalShown: true })).unwrap();
    if (accepted) track('login', { method: 'password' });
    else setProblem({ kind: 'staff' });
  });

  return (
    <div className="flex flex-col gap-6">
      <AuthHeading title="Log in">
        <p>Welcome back. Log in to see your bookings and book your photos with Santa.</p>
      </AuthHeading>

      {problem?.kind === 'staff' && (
        <FormAlert tone="error" title={STAFF_REFUSED_MESSAGE}>
          This app is for families booking photos. Staff accounts sign in to the{' '}
          <a href="/staff" className="font-semibold underline underline-offset-4">
            staff app
          </a>{' '}
          instead.
        </FormAlert>
      )}
      {problem?.kind === 'credentials' && (
        <FormAlert tone="error" title={problem.message}>
          Check for typing mistakes, or{' '}
          <Link to="/forgot-password" className="font-semibold underline underline-offset-4">
            reset your password
          </Link>
          .
        </FormAlert>
      )}
      {problem?.kind === 'other' && <FormAlert tone="error">{problem.message}</FormAlert>}

      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" {...preloadOnIntent(validation)}>
        <FormField
          label="Email address"
          type="email"
          autoComplete="email"
          inputMode="email"
          error={errors.email}
          {...form.field('email')}
        />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          error={errors.password}
          {...form.field('password')}
        />
        <div className="-mt-2 flex justify-end">
          <Link to="/forgot-password" className={linkClasses}>
            Forgot your password?
          </Link>
        </div>
        <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting} className="w-full">
          {isSubmitting ? 'Logging in...' : 'Log in'}
        </Button>
      </form>

      <p className="text-center text-ink-700">
        New here?{' '}
        <Link to="/register" className={linkClasses}>
          Create an account
        </Link>
      </p>
    </div>
  );
}
