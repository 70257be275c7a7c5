import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiError, fakeApi, json, recordedEvents, renderAuthPage } from './auth-test-support';
import { ForgotPasswordPage } from './forgot-password-page';

const SENT =
  'If an account exists for that email address, we have sent it a link to reset the password. Check your spam folder ' +
  'too.';

describe('ForgotPasswordPage', { timeout: 20_000 }, () => {
  beforeEach(() => {
    window.__kringleAnalytics = [];
  });

  it('checks the e-mail inline before sending', async () => {
    const api = fakeApi({});
    renderAuthPage(<ForgotPasswordPage />, { path: '/forgot-password', fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email address'), 'holly@example');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    // The form's schema loads on first use, so the check may finish a moment after the click.
    await waitFor(() =>
      expect(screen.getByLabelText('Email address')).toHaveAccessibleDescription(/Enter a valid email address/),
    );
    expect(api.calls).toEqual([]);
  });

  it('sends the e-mail and the site origin, then shows the same answer whatever the account', async () => {
    const api = fakeApi({ 'POST /user/auth/reset-password': () => json(200, { message: SENT }) });
    renderAuthPage(<ForgotPasswordPage />, { path: '/forgot-password', fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email address'), 'holly@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(screen.getByText(SENT)).toBeInTheDocument();
    expect(api.called('POST /user/auth/reset-password')[0]!.body).toEqual({
      email: 'holly@example.com',
      redirectUrl: window.location.origin,
    });
    expect(recordedEvents()).toEqual(['forgot_password']);
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');
  });

  it('shows a refusal in plain words', async () => {
    const api = fakeApi({
      'POST /user/auth/reset-password': () =>
        apiError(429, 'RATE_LIMITED', 'Too many requests. Try again in 20 minutes.'),
    });
    renderAuthPage(<ForgotPasswordPage />, { path: '/forgot-password', fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email address'), 'holly@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests. Try again in 20 minutes.');
  });
});
