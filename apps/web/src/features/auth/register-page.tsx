import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { track } from '../../lib/analytics';
import { errorCode, errorMessage, fieldErrors } from './api-error';
import { useRegisterMutation, useSendVerificationEmailMutation, useSignInMutation } from './api';
import {
  forgetVerificationSent,
  noteVerificationFailed,
  noteVerificationSending,
  noteVerificationSent,
} from './verification-sent';
import type { RegisterForm } from '@kringle/contracts/accounts';
import type { RegisterFormOutput } from './auth-form-schemas';
import { useAuthDispatch } from './auth-hooks';
import { AuthHeading, FormAlert, linkClasses } from './auth-ui';
import { FormField } from '../../components/ui/form-field';
import { PasswordField } from './password-field';
import { preloadOnIntent } from './preload-on-intent';
import { PasswordStrengthMeter, preloadPasswordStrength } from './password-strength-meter';
import { setSession } from './session';
import { useLightForm } from './use-light-form';

type Problem =
  | { kind: 'email-in-use'; message: string; email: string }
  | { kind: 'signed-up-not-in' }
  | { kind: 'other'; message: string };

const FIELDS = ['firstName', 'lastName', 'email', 'password', 'phone'] as const;

type RegisterFields = Required<{ [K in keyof RegisterForm]: string }>;

// The schema and the password rules (and zod) load when the user starts on the form.
const loadCheck = () => import('./auth-form-schemas').then((m) => m.checkRegisterForm);
const validation = {
  preload: () => Promise.all([loadCheck(), preloadPasswordStrength()]),
};
// An empty phone is no phone (it is optional), as react-hook-form's setValueAs did.
const check = async (values: RegisterFields) =>
  (await loadCheck())({ ...values, phone: values.phone.trim() ? values.phone : undefined });

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
  // Not react-hook-form: the same onTouched checks without its 12 kB on the first page (use-light-form.ts).
  const form = useLightForm<RegisterFields, RegisterFormOutput>({
    check,
    defaultValues: { firstName: '', lastName: '', email: '', password: '', phone: '' },
  });
  const { errors, isSubmitting } = form;
  const { password, email } = form.values;

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
      for (const field of known) form.setError(field, byField[field]);
      if (known.length === 0)
        setProblem({
          kind: 'other',
          message: errorMessage(created.error, 'We could not create your account. Please try again.'),
        });
      return;
    }
    track('sign_up', { method: 'password' });

    const session = await signIn({ email: values.email, password: values.password });
    // Noted before the session shows the verify screen, which reads it as it opens ("sending").
    if (!session.error) noteVerificationSending(values.email);
    if (session.error || 'mfaRequired' in session.data || !(await dispatch(setSession(session.data)).unwrap())) {
      forgetVerificationSent();
      setProblem({ kind: 'signed-up-not-in' });
      return;
    }
    // Spec §8: the registration stands; the verify screen (open by now) says the send failed, and why,
    // and offers 'Resend Email' (it claimed a link was sent when the request was refused, issue 53).
    const sent = await sendVerification({ redirectUrl: window.location.origin });
    if (sent.error) {
      noteVerificationFailed(values.email, errorMessage(sent.error, 'We could not send the verification email.'));
      console.error('Verification email request failed after registration', sent.error);
    } else noteVerificationSent(values.email);
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
            <Link
              to="/forgot-password"
              state={{ email: problem.email }}
              className="font-semibold underline underline-offset-4"
            >
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

      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" {...preloadOnIntent(validation)}>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            label="First name"
            autoComplete="given-name"
            error={errors.firstName}
            {...form.field('firstName')}
          />
          <FormField label="Last name" autoComplete="family-name" error={errors.lastName} {...form.field('lastName')} />
        </div>
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
          autoComplete="new-password"
          error={errors.password}
          below={<PasswordStrengthMeter password={password} email={email} hideProblem={!!errors.password} />}
          {...form.field('password')}
        />
        <FormField
          label="Mobile number"
          optional
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          hint="Only used if we need to reach you about a booking."
          error={errors.phone}
          {...form.field('phone')}
        />
        <p className="text-sm text-ink-700">
          By creating an account you agree to the{' '}
          <Link to="/terms_and_conditions" className="font-semibold text-festive-700 underline underline-offset-4">
            Terms and Conditions
          </Link>
          . How we look after your family's information:{' '}
          <Link to="/privacy" className="font-semibold text-festive-700 underline underline-offset-4">
            Privacy policy
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
