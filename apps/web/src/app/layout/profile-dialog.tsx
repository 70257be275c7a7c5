import * as Dialog from '@radix-ui/react-dialog';
import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import { changePasswordFormSchema, updateProfileRequestSchema } from '@kringle/contracts/accounts';
import { australianMobile, displayMobile } from '@kringle/contracts/phone';
import { Button } from '../../components/ui/button';
import { CONFIRM_DIALOG } from '../../components/ui/confirm-dialog';
import { toastSuccess } from '../../lib/deferred-toast';
import { useAppDispatch, useAppSelector } from '../hooks';
import { errorMessage, fieldErrors } from '../../features/auth/api-error';
import { useChangePasswordMutation, useUpdateProfileMutation } from '../../features/auth/api';
import { userUpdated } from '../../features/auth/auth-slice';
import { FormAlert } from '../../features/auth/auth-ui';
import { FormField } from '../../components/ui/form-field';
import { PasswordField } from '../../features/auth/password-field';
import { setSession } from '../../features/auth/session';

export type ProfileDialogMode = 'profile' | 'password' | 'data';

const TITLES: Record<ProfileDialogMode, string> = {
  profile: 'Your details',
  password: 'Change password',
  data: 'Your data',
};

// Download and deletion: their own chunk, loaded only when "Your data" opens.
const PrivacyActions = lazy(() => import('./privacy-actions'));

type Errors = Record<string, string | undefined>;

/** zod issues keyed by their field, first message each. */
function issuesOf(error: { issues: { path: PropertyKey[]; message: string }[] }): Errors {
  const out: Errors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    out[field] ??= issue.message;
  }
  return out;
}

const SMS_NEEDS_MOBILE = 'Add your mobile number to get text reminders.';

function ProfileForm({ onDone }: { onDone: () => void }) {
  const dispatch = useAppDispatch();
  const user = useAppSelector((state) => state.auth.user);
  const [update, { isLoading }] = useUpdateProfileMutation();
  // The mobile as people here write it (0412 345 678); the API keeps E.164.
  const savedPhone = user?.phone ? displayMobile(user.phone) : '';
  const [values, setValues] = useState({
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
    phone: savedPhone,
  });
  const [reminders, setReminders] = useState(user?.sms.reminders ?? false);
  const [errors, setErrors] = useState<Errors>({});
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const phone = values.phone.trim();
    // Sent only when changed: a number saved before mobiles were checked does not block a new name. An emptied one
    // clears it (PATCH null); names are kept exactly as typed (spec §3 helper only capitalises first letters).
    const e164 = australianMobile(phone);
    const phoneChanged = phone !== savedPhone && (e164 === null || e164 !== user?.phone);
    const parsed = updateProfileRequestSchema.safeParse({
      firstName: values.firstName,
      lastName: values.lastName,
      ...(phoneChanged ? { phone: phone || null } : {}),
      ...(reminders !== user?.sms.reminders ? { sms: { reminders } } : {}),
    });
    const smsProblem = reminders && !phone ? { sms: SMS_NEEDS_MOBILE } : {};
    if (!parsed.success) return setErrors({ ...issuesOf(parsed.error), ...smsProblem });
    if (smsProblem.sms) return setErrors(smsProblem);
    setErrors({});
    const result = await update(parsed.data);
    if (result.error) {
      const byField = fieldErrors(result.error);
      setErrors(byField);
      if (Object.keys(byField).length === 0)
        setProblem(errorMessage(result.error, 'We could not save your details. Please try again.'));
      return;
    }
    dispatch(userUpdated(result.data.user));
    void toastSuccess('Your details are saved.');
    onDone();
  };

  // A message goes once its field is edited: it spoke of what was there before (a mobile clears the SMS one too).
  const field = (name: keyof typeof values) => ({
    value: values[name],
    error: errors[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      setValues((v) => ({ ...v, [name]: e.target.value }));
      setErrors((all) => ({ ...all, [name]: undefined, ...(name === 'phone' ? { sms: undefined } : {}) }));
    },
  });

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      {problem && <FormAlert tone="error">{problem}</FormAlert>}
      <FormField label="First name" autoComplete="given-name" {...field('firstName')} />
      <FormField label="Last name" autoComplete="family-name" {...field('lastName')} />
      <FormField
        label="Mobile number"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        optional
        hint="An Australian mobile. We text it if your session moves or Santa is running late."
        {...field('phone')}
      />
      <SmsRemindersChoice
        checked={reminders}
        onChange={(checked) => {
          setReminders(checked);
          setErrors((all) => ({ ...all, sms: undefined }));
        }}
        error={errors.sms}
      />
      <p className="text-sm text-ink-600">
        Your email address ({user?.email}) is how you sign in, so it stays as it is.
      </p>
      <div className={CONFIRM_DIALOG.actions}>
        <Dialog.Close asChild>
          <Button variant="secondary">Cancel</Button>
        </Dialog.Close>
        <Button type="submit" disabled={isLoading} aria-busy={isLoading}>
          {isLoading ? 'Saving...' : 'Save details'}
        </Button>
      </div>
    </form>
  );
}

/** The day-before reminder by SMS (off until the family asks, decision 0100); STOP to any text also ends them. */
function SmsRemindersChoice({
  checked,
  onChange,
  error,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label
        className={
          'flex min-h-11 cursor-pointer items-start gap-3 rounded-xl border border-cream-300 bg-cream-50 p-3 ' +
          'has-checked:border-pine-700 has-checked:bg-pine-50'
        }
      >
        <input
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : `${id}-hint`}
          className="mt-0.5 size-6 shrink-0 accent-pine-700"
        />
        <span className="flex flex-col gap-0.5">
          <span className="font-semibold text-ink-900">Text me a reminder the day before my visit</span>
          <span id={`${id}-hint`} className="text-sm text-ink-600">
            Reply STOP to any of our texts to stop them.
          </span>
        </span>
      </label>
      {error && (
        <p id={`${id}-error`} className="flex items-start gap-1.5 text-sm font-medium text-festive-800">
          <span aria-hidden="true">⚠</span>
          <span>{error}</span>
        </p>
      )}
    </div>
  );
}

function PasswordForm({ onDone }: { onDone: () => void }) {
  const dispatch = useAppDispatch();
  const [change, { isLoading }] = useChangePasswordMutation();
  const [values, setValues] = useState({ currentPassword: '', newPassword: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = changePasswordFormSchema.safeParse(values);
    if (!parsed.success) return setErrors(issuesOf(parsed.error));
    setErrors({});
    const result = await change(parsed.data);
    if (result.error) {
      const byField = fieldErrors(result.error);
      setErrors(byField);
      if (Object.keys(byField).length === 0)
        setProblem(errorMessage(result.error, 'We could not change your password. Please try again.'));
      return;
    }
    // The API signed every other device out and started a fresh session here.
    await dispatch(setSession(result.data));
    void toastSuccess('Password changed. Other devices will need to sign in again.');
    onDone();
  };

  const field = (name: keyof typeof values) => ({
    value: values[name],
    error: errors[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
  });

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      {problem && <FormAlert tone="error">{problem}</FormAlert>}
      <PasswordField label="Current password" autoComplete="current-password" {...field('currentPassword')} />
      <PasswordField
        label="New password"
        autoComplete="new-password"
        hint="At least 8 characters, not a common password."
        {...field('newPassword')}
      />
      <div className={CONFIRM_DIALOG.actions}>
        <Dialog.Close asChild>
          <Button variant="secondary">Cancel</Button>
        </Dialog.Close>
        <Button type="submit" disabled={isLoading} aria-busy={isLoading}>
          {isLoading ? 'Saving...' : 'Change password'}
        </Button>
      </div>
    </form>
  );
}

/**
 * Edit name and phone (PATCH /user/me), change the password (POST /user/me/password), or the
 * family's data (download and deletion): an entry of its own in the account menu, not hidden
 * under "Edit name and phone" (issue 53 item 15).
 */
export default function ProfileDialog({ mode, onClose }: { mode: ProfileDialogMode; onClose: () => void }) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={CONFIRM_DIALOG.overlay} />
        <Dialog.Content className={CONFIRM_DIALOG.content} aria-describedby={undefined}>
          <Dialog.Title className={CONFIRM_DIALOG.title}>{TITLES[mode]}</Dialog.Title>
          {mode === 'profile' && <ProfileForm onDone={onClose} />}
          {mode === 'password' && <PasswordForm onDone={onClose} />}
          {mode === 'data' && (
            <>
              <Suspense fallback={<p className="text-ink-700">Loading…</p>}>
                <PrivacyActions />
              </Suspense>
              <Dialog.Close asChild>
                <Button variant="secondary" className="self-end">
                  Close
                </Button>
              </Dialog.Close>
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
