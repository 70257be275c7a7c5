import { useEffect, useRef, useState } from 'react';
import type { User } from '@kringle/contracts/accounts';
import { Button } from '../../components/ui/button';
import { asApiError, errorCode, errorMessage, fieldErrors } from './api-error';
import { useChangeEmailMutation } from './api';
import type { ChangeEmailFormInput, ChangeEmailFormOutput } from './auth-form-schemas';
import { FormAlert } from './auth-ui';
import { FormField } from '../../components/ui/form-field';
import { PasswordField } from './password-field';
import { useLightForm } from './use-light-form';

// The schema (and zod) load with the form, which opens only when asked for.
const loadCheck = () => import('./auth-form-schemas').then((m) => m.checkChangeEmailForm);
const check = async (values: ChangeEmailFormInput) => (await loadCheck())(values);

const FIELDS = ['email', 'password'] as const;

/**
 * "Wrong address? Change it" on the verify screen (issue 37 item 10, decision 0068): corrects the
 * address of this unverified account, with the password again; the API voids the old links and
 * mails a new one. Refusals go next to their field; a 429 is toasted by the base query.
 */
export function ChangeEmailForm({
  currentEmail,
  onChanged,
  onCancel,
}: {
  currentEmail: string;
  onChanged: (user: User) => void;
  onCancel: () => void;
}) {
  const [changeEmail] = useChangeEmailMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useLightForm<ChangeEmailFormInput, ChangeEmailFormOutput>({
    check,
    defaultValues: { email: currentEmail, password: '' },
  });
  const { errors, isSubmitting } = form;
  const emailField = form.field('email');
  const emailInput = useRef<HTMLInputElement | null>(null);
  // Opened by a tap on 'Change it': the address is what the family came to fix.
  useEffect(() => emailInput.current?.focus(), []);

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    if (values.email === currentEmail.toLowerCase()) {
      form.setError('email', 'That is the address we already have. Correct it, or press Cancel.');
      return;
    }
    const result = await changeEmail({ ...values, redirectUrl: window.location.origin });
    if (!result.error) {
      onChanged(result.data.user);
      return;
    }
    if (errorCode(result.error) === 'EMAIL_IN_USE') {
      form.setError('email', errorMessage(result.error));
      return;
    }
    const byField = fieldErrors(result.error);
    const known = FIELDS.filter((field) => byField[field]);
    for (const field of known) form.setError(field, byField[field]);
    if (known.length === 0 && asApiError(result.error)?.status !== 429) {
      setFailure(errorMessage(result.error, 'We could not change your address. Please try again.'));
    }
  });

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-labelledby="change-email-heading"
      className="flex flex-col gap-4 rounded-2xl border border-cream-300 bg-cream-50 p-4"
    >
      <h3 id="change-email-heading" className="font-sans text-base font-semibold text-ink-900">
        Change your email address
      </h3>
      {failure && <FormAlert tone="error">{failure}</FormAlert>}
      <FormField
        label="Email address"
        type="email"
        autoComplete="email"
        inputMode="email"
        error={errors.email}
        {...emailField}
        ref={(element) => {
          emailField.ref(element);
          emailInput.current = element;
        }}
      />
      <PasswordField
        label="Password"
        autoComplete="current-password"
        hint="The password of this account, so nobody else can move it to their address."
        error={errors.password}
        {...form.field('password')}
      />
      <div className="flex flex-col gap-3 sm:flex-row-reverse">
        <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting} className="w-full sm:flex-1">
          {isSubmitting ? 'Saving...' : 'Save'}
        </Button>
        <Button variant="ghost" onClick={onCancel} disabled={isSubmitting} className="w-full sm:flex-1">
          Cancel
        </Button>
      </div>
    </form>
  );
}
