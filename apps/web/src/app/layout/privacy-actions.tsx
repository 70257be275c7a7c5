import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { toastError, toastSuccess } from '../../lib/deferred-toast';
import { downloadFile } from '../../lib/download-file';
import { useAppDispatch, useAppSelector } from '../hooks';
import { errorCode, errorMessage, fieldErrors } from '../../features/auth/api-error';
import { FormAlert } from '../../features/auth/auth-ui';
import { FormField } from '../../components/ui/form-field';
import { PasswordField } from '../../features/auth/password-field';
import { signOut } from '../../features/auth/session';
import { useDeleteAccountMutation } from '../../features/privacy/api';
import { FamilyChoices } from './family-choices';
import { exportFileName } from '@kringle/contracts/privacy';

/**
 * The account menu's "Your data": download everything held (GET /user/export) and delete the account
 * (DELETE /user). Its own chunk, loaded when it opens, so the pages' first bundles stay as they were.
 */
export default function PrivacyActions() {
  const dispatch = useAppDispatch();
  const email = useAppSelector((state) => state.auth.user?.email ?? '');
  const [deleting, setDeleting] = useState(false);
  const [values, setValues] = useState({ password: '', confirmEmail: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  // The API's words naming the upcoming bookings that deleting would cancel: the second confirmation.
  const [upcoming, setUpcoming] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [remove, { isLoading }] = useDeleteAccountMutation();

  const download = async () => {
    try {
      await dispatch(
        downloadFile({
          url: '/user/export',
          filename: exportFileName(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone),
          what: 'your data',
        }),
      ).unwrap();
    } catch (error) {
      void toastError(errorMessage(error, 'We could not download your data. Please try again.'));
    }
  };

  const submit = async (event: FormEvent, cancelUpcoming = false) => {
    event.preventDefault();
    setProblem(null);
    const result = await remove({ ...values, ...(cancelUpcoming ? { cancelUpcoming: true } : {}) });
    if (result.error) {
      if (errorCode(result.error) === 'UPCOMING_BOOKINGS') return setUpcoming(errorMessage(result.error));
      const byField = fieldErrors(result.error);
      setErrors(byField);
      if (Object.keys(byField).length === 0)
        setProblem(errorMessage(result.error, 'We could not delete your account. Please try again.'));
      return;
    }
    void toastSuccess('Your account is deleted. Thank you for visiting Santa with us.');
    await dispatch(signOut({ callServer: false }));
  };

  const field = (name: keyof typeof values) => ({
    value: values[name],
    error: errors[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
  });

  return (
    <section aria-label="Your data" className="flex flex-col gap-3">
      <FamilyChoices />
      <h3 className="mt-2 font-display text-lg text-ink-900">Everything we hold</h3>
      <p className="text-sm text-ink-700">
        Everything we hold about your family, in one file.{' '}
        <a href="/privacy" target="_blank" rel="noopener" className="font-semibold text-festive-800 underline">
          Privacy policy
        </a>
      </p>
      <Button variant="secondary" onClick={() => void download()}>
        Download my data
      </Button>
      {!deleting && (
        <Button variant="ghost" className="text-festive-800" onClick={() => setDeleting(true)}>
          Delete my account
        </Button>
      )}
      {deleting && !upcoming && (
        <form
          onSubmit={(e) => void submit(e)}
          noValidate
          className="flex flex-col gap-3 rounded-xl bg-festive-50 p-3"
          aria-label="Delete my account"
        >
          <p className="text-sm text-ink-900">
            Deleting your account removes your details, your children's details, notes and photos at once. You will not
            be able to sign in again. Tax invoices are kept for the tax office.
          </p>
          {problem && <FormAlert tone="error">{problem}</FormAlert>}
          <PasswordField label="Your password" autoComplete="current-password" {...field('password')} />
          <FormField
            label={`Type your e-mail address (${email}) to confirm`}
            type="email"
            autoComplete="off"
            {...field('confirmEmail')}
          />
          <Button type="submit" disabled={isLoading} aria-busy={isLoading}>
            {isLoading ? 'Deleting...' : 'Delete my account'}
          </Button>
        </form>
      )}
      {upcoming && (
        <form
          onSubmit={(e) => void submit(e, true)}
          className="flex flex-col gap-3 rounded-xl bg-festive-50 p-3"
          aria-label="Cancel upcoming bookings and delete"
        >
          <p role="alert" className="text-sm font-semibold text-ink-900">
            {upcoming}
          </p>
          <p className="text-sm text-ink-900">
            Each is cancelled by our policy and refunded to your card, and you get an e-mail for each.
          </p>
          {problem && <FormAlert tone="error">{problem}</FormAlert>}
          <Button variant="secondary" onClick={() => setUpcoming(null)}>
            Keep my account
          </Button>
          <Button type="submit" disabled={isLoading} aria-busy={isLoading}>
            {isLoading ? 'Deleting...' : 'Cancel them and delete my account'}
          </Button>
        </form>
      )}
    </section>
  );
}
