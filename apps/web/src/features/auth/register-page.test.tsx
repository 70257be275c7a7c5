import { screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { toast } from 'sonner';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi, json, recordedEvents, renderAuthPage, session, testUser } from './auth-test-support';
import { RegisterPage } from './register-page';
import { secondsUntilResend, verificationSend } from './verification-sent';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

async function fill(user: UserEvent, values: { email?: string; password?: string; phone?: string } = {}) {
  await user.type(screen.getByLabelText('First name'), 'holly');
  await user.type(screen.getByLabelText('Last name'), 'Winters');
  await user.type(screen.getByLabelText('Email address'), values.email ?? 'holly@example.com');
  await user.type(screen.getByLabelText('Password'), values.password ?? 'Mistletoe-Lane-42');
  if (values.phone) await user.type(screen.getByLabelText(/Mobile number/), values.phone);
}

describe('RegisterPage', { timeout: 20_000 }, () => {
  beforeEach(() => {
    window.sessionStorage.clear();
    window.__kringleAnalytics = [];
    vi.mocked(toast.error).mockClear();
  });

  it('checks every field with the shared rules, inline', async () => {
    const api = fakeApi({});
    renderAuthPage(<RegisterPage />, { path: '/register', fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    // The rules load once the form is first used (lazy-resolver.ts), so the very first check may wait for them.
    await waitFor(() => expect(screen.getByLabelText('First name')).toHaveAccessibleDescription(/Required/));
    expect(screen.getByLabelText('Last name')).toHaveAccessibleDescription(/Required/);
    expect(screen.getByLabelText('Email address')).toHaveAccessibleDescription(/Enter a valid email address/);
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(/Use at least 8 characters/);
    // The phone is optional: left empty it is not an error.
    expect(screen.getByLabelText(/Mobile number/)).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('textbox', { name: 'Mobile number (optional)' })).toBeInTheDocument();
    expect(api.calls).toEqual([]);
  });

  it(
    'says nothing while a field is first typed in; a mistake shows once the field is left, and goes as soon as it ' +
      'is fixed (issue 37 item 10)',
    async () => {
      renderAuthPage(<RegisterPage />, { path: '/register', fetchFn: fakeApi({}).fetchFn });
      const user = userEvent.setup();
      const email = screen.getByLabelText('Email address');
      await user.type(email, 'holly@');
      await new Promise((r) => setTimeout(r, 100));
      expect(email).not.toHaveAttribute('aria-invalid');
      expect(screen.getByLabelText('First name')).not.toHaveAttribute('aria-invalid');
      await user.tab();
      await waitFor(() => expect(email).toHaveAccessibleDescription(/Enter a valid email address/));
      // Untouched fields still say nothing.
      expect(screen.getByLabelText('Password')).not.toHaveAttribute('aria-invalid');
      await user.type(email, 'example.com');
      await waitFor(() => expect(email).not.toHaveAttribute('aria-invalid'));
    },
  );

  it('refuses a common password and one that is the e-mail, and shows the strength', async () => {
    const api = fakeApi({});
    renderAuthPage(<RegisterPage />, { path: '/register', fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await fill(user, { password: 'password' });
    expect(await screen.findByTestId('password-strength')).toHaveTextContent(/Too weak.*too common/);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(/too common/);

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'holly@example.com');
    // Once the field shows its error, the meter does not repeat it.
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(/Too weak.*Do not use your email address/);
    expect(screen.getByTestId('password-strength')).not.toHaveTextContent(/Do not use/);
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'Mistletoe-Lane-42');
    expect(screen.getByTestId('password-strength')).toHaveTextContent(/Strong/);
    await user.type(screen.getByLabelText(/Mobile number/), 'call me');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByLabelText(/Mobile number/)).toHaveAccessibleDescription(/Enter a valid phone number/);
    expect(api.calls).toEqual([]);
  });

  it('registers, signs in and asks for the verification e-mail with the site origin', async () => {
    const api = fakeApi({
      'POST /user': () => json(201, { user: testUser }),
      'POST /auth/sign-in': () => session(),
      'POST /user/auth/email-verification': () => json(200, { message: 'Verification email sent successfully' }),
    });
    const { store } = renderAuthPage(<RegisterPage />, { path: '/register', fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await fill(user, { phone: '0412 345 678' });
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(api.called('POST /user/auth/email-verification')).toHaveLength(1));
    expect(api.called('POST /user')[0]!.body).toEqual({
      firstName: 'holly',
      lastName: 'Winters',
      email: 'holly@example.com',
      password: 'Mistletoe-Lane-42',
      phone: '0412 345 678',
    });
    expect(api.called('POST /auth/sign-in')[0]!.body).toEqual({
      email: 'holly@example.com',
      password: 'Mistletoe-Lane-42',
    });
    expect(api.called('POST /user/auth/email-verification')[0]!.body).toEqual({ redirectUrl: window.location.origin });
    expect(store.getState().auth.user?.email).toBe('holly@example.com');
    expect(recordedEvents()).toEqual(['sign_up']);
    // The verify screen's Resend waits out the server's one-a-minute limit.
    expect(secondsUntilResend('holly@example.com', 60)).toBeGreaterThan(55);
    expect(verificationSend('holly@example.com').state).toBe('sent');
  });

  it('a refused verification e-mail is noted for the verify screen, which says so (spec §8, issue 53)', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = fakeApi({
      'POST /user': () => json(201, { user: testUser }),
      'POST /auth/sign-in': () => session(),
      'POST /user/auth/email-verification': () => apiError(400, 'REDIRECT_NOT_ALLOWED', 'That link is not allowed.'),
    });
    const { store } = renderAuthPage(<RegisterPage />, { path: '/register', fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(log).toHaveBeenCalled());
    expect(toast.error).not.toHaveBeenCalled();
    // No e-mail went: 'Resend Email' need not wait.
    expect(secondsUntilResend('holly@example.com', 60)).toBe(0);
    expect(verificationSend('holly@example.com')).toEqual({ state: 'failed', message: 'That link is not allowed.' });
    expect(store.getState().auth.user).not.toBeNull();
    log.mockRestore();
  });

  it('an e-mail in use gets plain words and links to log in or reset', async () => {
    const api = fakeApi({
      'POST /user': () => apiError(409, 'EMAIL_IN_USE', 'An account with this email address already exists.'),
    });
    renderAuthPage(<RegisterPage />, { path: '/register', fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('An account with this email address already exists.');
    expect(screen.getByRole('link', { name: 'reset your password' })).toHaveAttribute('href', '/forgot-password');
    expect(alert.querySelector('a[href="/login"]')).not.toBeNull();
    expect(api.called('POST /auth/sign-in')).toHaveLength(0);
  });

  it('puts a server-side field refusal next to its field', async () => {
    const api = fakeApi({
      'POST /user': () =>
        apiError(400, 'WEAK_PASSWORD', 'That password is too common', [
          { path: 'body.password', message: 'That password is too common' },
        ]),
    });
    renderAuthPage(<RegisterPage />, { path: '/register', fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(/That password is too common/),
    );
  });
});
