import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { track } from '../../lib/analytics';
import { errorCode, errorMessage, fieldErrors } from './api-error';
import { useRegisterMutation, useSendVerificationEmailMutation, useSignInMutation } from './api';
import { registerFormSchema, type RegisterForm } from '@kringle/contracts/accounts';
import type { RegisterFormOutput } from './auth-form-schemas';
import { useAuthDispatch } from './auth-hooks';
import { AuthHeading, FormAlert, linkClasses } from './auth-ui';
import { FormField } from './form-field';
import { PasswordField } from './password-field';
import { PasswordStrengthMeter } from './password-strength-meter';
import { setSession } from './session';

type Problem = { kind: 'email-in-use'; message: string; email: string } | { kind: 'signed-up-not-in' } | { kind: 'other'; message: string };

const FIELDS = ['firstName', 'lastName', 'email', 'password', 'phone'] as const;

/**
 * /register. On success the new customer is signed in and a verification e-mail is asked for
 * (redirectUrl = this site's origin, spec §3); the guard then shows the verify screen.
 */
export function RegisterPage() {
  const dispatch = useAuthDispatch();
  const [register] = useRegisterMutation();
  const [signIn] = useSignInMutation();
  const [sendVerification] = useSendVerificationEmailMutation();
  const [problem, setProblem] = useState<Problem | null>(null);
  const form = useForm<RegisterForm, unknown, RegisterFormOutput>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: { firstName: '', lastName: '', email: '', password: '', phone: undefined },
    mode: 'onTouched',
  });
  const { errors, isSubmitting } = form.formState;
  const [password, email] = useWatch({ control: form.control, name: ['password', 'email'] });

  const onSubmit = form.handleSubmit(async (values) => {
    setProblem(null);
    const created = await register(values);
    if (created.error) {
      const code = errorCode(created.error);
      if (code === 'EMAIL_IN_USE') {
        setProblem({ kind: 'email-in-use', message: errorMessage(created.error), email: values.email });
        return;
      }
      // Field-level refusals (VALIDATION_FAILED, WEAK_PASSWORD) go next to their field.
      const byField = fieldErrors(created.error);
      const known = FIELDS.filter((field) => byField[field]);
      for (const field of known) form.setError(field, { message: byField[field] });
      if (known.length === 0) setProblem({ kind: 'other', message: errorMessage(created.error, 'We could not create your account. Please try again.') });
      return;
    }
    track('sign_up', { method: 'password' });

    const session = await signIn({ email: values.email, password: values.password });
    if (session.error || !(await dispatch(setSession(session.data)).unwrap())) {
      setProblem({ kind: 'signed-up-not-in' });
      return;
    }
    // Spec §8: a failure here is only logged; the verify screen offers 'Resend Email'.
    const sent = await sendVerification({ redirectUrl: window.location.origin });
    if (sent.error) console.error('Verification email request failed after registration', sent.error);
  });

  return (
    <div className="flex flex-col gap-6">
      <AuthHeading title="Create your account">
        <p>Book photos with Santa in a few minutes. We&apos;ll email you a link to confirm your address.</p>
      </AuthHeading>

      {problem?.kind === 'email-in-use' && (
        <FormAlert tone="error" title={problem.message}>
          <p>
            <Link to="/login" className="font-semibold underline underline-offset-4">
              Log in
            </Link>{' '}
            instead, or{' '}
            <Link to="/forgot-password" state={{ email: problem.email }} className="font-semibold underline underline-offset-4">
              reset your password
            </Link>{' '}
            if you have forgotten it.
          </p>
        </FormAlert>
      )}
      {problem?.kind === 'signed-up-not-in' && (
        <FormAlert tone="success" title="Your account is ready">
          <p>
            We could not log you in just now.{' '}
            <Link to="/login" className="font-semibold underline underline-offset-4">
              Log in
            </Link>{' '}
            with your new email address and password.
          </p>
        </FormAlert>
      )}
      {problem?.kind === 'other' && <FormAlert tone="error">{problem.message}</FormAlert>}

      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="First name" autoComplete="given-name" error={errors.firstName?.message} {...form.register('firstName')} />
          <FormField label="Last name" autoComplete="family-name" error={errors.lastName?.message} {...form.register('lastName')} />
        </div>
        <FormField label="Email address" type="email" autoComplete="email" inputMode="email" error={errors.email?.message} {...form.register('email')} />
        <PasswordField
          label="Password"
          autoComplete="new-password"
          error={errors.password?.message}
          below={<PasswordStrengthMeter password={password} email={email} hideProblem={!!errors.password} />}
          {...form.register('password')}
        />
        <FormField
          label="Mobile number"
          optional
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          hint="Only used if we need to reach you about a booking."
          error={errors.phone?.message}
          {...form.register('phone', { setValueAs: (v: string | undefined) => (v && v.trim() ? v : undefined) })}
        />
        <p className="text-sm text-ink-700">
          By creating an account you agree to the{' '}
          <Link to="/terms_and_conditions" className="font-semibold text-festive-700 underline underline-offset-4">
            Terms and Conditions
          </Link>
          .
        </p>
        <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting} className="w-full">
          {isSubmitting ? 'Creating account...' : 'Create account'}
        </Button>
      </form>

      <p className="text-center text-ink-700">
        Already have an account?{' '}
        <Link to="/login" className={linkClasses}>
          Log in
        </Link>
      </p>
    </div>
  );
}
