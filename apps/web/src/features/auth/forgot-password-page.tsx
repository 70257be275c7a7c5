import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button';
import { track } from '../../lib/analytics';
import { errorMessage } from './api-error';
import { useSendPasswordResetMutation } from './api';
import type { ForgotPasswordFormInput } from './auth-form-schemas';
import { AuthHeading, FormAlert, linkClasses, StateBadge } from './auth-ui';
import { FormField } from '../../components/ui/form-field';
import { preloadOnIntent } from './preload-on-intent';
import { useLightForm } from './use-light-form';

// The schema (and zod) load when the user starts on the form, as on /login.
const loadCheck = () => import('./auth-form-schemas').then((m) => m.checkForgotPasswordForm);
const validation = { preload: loadCheck };
const check = async (values: ForgotPasswordFormInput) => (await loadCheck())(values);

/**
 * /forgot-password. The API answers the same whether or not the account exists (no
 * enumeration), so the page does too: it always shows the "check your inbox" state.
 */
export function ForgotPasswordPage() {
  const location = useLocation();
  const prefill = (location.state as { email?: unknown } | null)?.email;
  const [sendReset] = useSendPasswordResetMutation();
  const [sent, setSent] = useState<{ email: string; message: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useLightForm<ForgotPasswordFormInput, ForgotPasswordFormInput>({
    check,
    defaultValues: { email: typeof prefill === 'string' ? prefill : '' },
  });
  const { errors, isSubmitting } = form;

  const onSubmit = form.handleSubmit(async ({ email }) => {
    setFailure(null);
    const result = await sendReset({ email, redirectUrl: window.location.origin });
    if (result.error) {
      setFailure(errorMessage(result.error, 'We could not send the email. Please try again.'));
      return;
    }
    track('forgot_password');
    setSent({ email, message: result.data.message });
  });

  if (sent) {
    return (
      <div className="flex flex-col items-start gap-5">
        <StateBadge tone="success">✉</StateBadge>
        <AuthHeading title="Check your email" focus>
          <p>{sent.message}</p>
          <p className="mt-2">
            We sent it to <strong className="[overflow-wrap:anywhere]">{sent.email}</strong>. The link works for one
            hour.
          </p>
        </AuthHeading>
        <Link to="/login" className={buttonClasses('primary', 'w-full')}>
          Back to login
        </Link>
        <Button variant="ghost" className="w-full" onClick={() => setSent(null)}>
          Use a different email address
        </Button>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-6">
      <AuthHeading title="Forgot your password?">
        <p>Enter the email address you registered with and we&apos;ll send you a link to choose a new password.</p>
      </AuthHeading>
      {failure && <FormAlert tone="error">{failure}</FormAlert>}
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" {...preloadOnIntent(validation)}>
        <FormField
          label="Email address"
          type="email"
          autoComplete="email"
          inputMode="email"
          error={errors.email}
          {...form.field('email')}
        />
        <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting} className="w-full">
          {isSubmitting ? 'Sending...' : 'Send reset link'}
        </Button>
      </form>
      <p className="text-center text-ink-700">
        Remembered it?{' '}
        <Link to="/login" className={linkClasses}>
          Back to login
        </Link>
      </p>
    </div>
  );
}
