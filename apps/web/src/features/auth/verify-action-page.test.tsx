import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  apiError,
  customerToken,
  fakeApi,
  json,
  recordedEvents,
  renderAuthPage,
  session,
  testUser,
} from './auth-test-support';
import { VerifyActionPage } from './verify-action-page';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const expired = () => apiError(400, 'EXPIRED_ACTION_CODE', 'This link has expired. Please ask for a new one.');
const used = () =>
  apiError(400, 'INVALID_ACTION_CODE', 'This link is not valid or has already been used. Please ask for a new one.');
const unverified = { user: testUser, idToken: customerToken, expiresAt: '2099-01-01T00:00:00.000Z' };
const verifyUrl = '/verify?mode=verifyEmail&oobCode=abc';
const resetUrl = '/verify?mode=resetPassword&oobCode=xyz';

describe('/verify, mode=verifyEmail', { timeout: 20_000 }, () => {
  beforeEach(() => {
    window.__kringleAnalytics = [];
  });

  it('verifies once and offers a guest the way to log in', async () => {
    const api = fakeApi({
      'POST /auth/action/verify-email': () => json(200, { message: 'Your email address has been verified.' }),
    });
    renderAuthPage(<VerifyActionPage />, { path: verifyUrl, fetchFn: api.fetchFn });
    expect(screen.getByRole('heading', { name: 'Verifying your email address...' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Your email address is verified' })).toBeInTheDocument();
    expect(api.called('POST /auth/action/verify-email')).toEqual([
      expect.objectContaining({ body: { oobCode: 'abc' } }),
    ]);
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(recordedEvents()).toEqual(['email_verification']);
  });

  it('a signed-in user refreshes the session and goes on to /bookings', async () => {
    const verified = { ...testUser, emailVerified: true };
    const api = fakeApi({
      'POST /auth/action/verify-email': () => json(200, { message: 'Your email address has been verified.' }),
      'POST /auth/refresh': () => session(verified),
    });
    const { store, router } = renderAuthPage(<VerifyActionPage />, {
      path: verifyUrl,
      auth: unverified,
      fetchFn: api.fetchFn,
    });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Continue to my bookings' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/bookings'));
    expect(store.getState().auth.user?.emailVerified).toBe(true);
  });

  it('an expired link says so; a signed-in user can send a new one', async () => {
    const api = fakeApi({
      'POST /auth/action/verify-email': expired,
      'POST /user/auth/email-verification': () => json(200, { message: 'Verification email sent successfully' }),
    });
    renderAuthPage(<VerifyActionPage />, { path: verifyUrl, auth: unverified, fetchFn: api.fetchFn });
    expect(await screen.findByRole('heading', { name: 'This link has expired' })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send me a new link' }));
    expect(await screen.findByText(/sent a new verification link/)).toBeInTheDocument();
    expect(api.called('POST /user/auth/email-verification')[0]!.body).toEqual({ redirectUrl: window.location.origin });
  });

  it('a used link tells a guest to log in for a new one', async () => {
    const api = fakeApi({ 'POST /auth/action/verify-email': used });
    renderAuthPage(<VerifyActionPage />, { path: verifyUrl, fetchFn: api.fetchFn });
    expect(await screen.findByRole('heading', { name: 'This link has been used or is not valid' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in to get a new link' })).toHaveAttribute('href', '/login');
  });

  it('a link without its code is incomplete, and nothing is called', () => {
    const api = fakeApi({});
    renderAuthPage(<VerifyActionPage />, { path: '/verify?mode=verifyEmail', fetchFn: api.fetchFn });
    expect(screen.getByRole('heading', { name: 'This link is not complete' })).toBeInTheDocument();
    expect(api.calls).toEqual([]);
  });
});

describe('/verify, mode=resetPassword', { timeout: 20_000 }, () => {
  beforeEach(() => {
    window.__kringleAnalytics = [];
  });

  it('checks the code, shows the masked e-mail, refuses a weak password, then changes it', async () => {
    const api = fakeApi({
      'POST /auth/action/check': () => json(200, { mode: 'resetPassword', email: 'h***y@example.com' }),
      'POST /auth/action/reset-password': () =>
        json(200, { message: 'Your password has been changed. Please sign in with your new password.' }),
    });
    renderAuthPage(<VerifyActionPage />, { path: resetUrl, fetchFn: api.fetchFn });
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(screen.getByText('h***y@example.com')).toBeInTheDocument();
    const user = userEvent.setup();
    const field = screen.getByLabelText('New password');
    await user.type(field, 'password1');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(field).toHaveAccessibleDescription(/too common/);
    expect(api.called('POST /auth/action/reset-password')).toHaveLength(0);

    await user.clear(field);
    await user.type(field, 'Reindeer-Games-2026');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByRole('heading', { name: 'Your password has been changed' })).toBeInTheDocument();
    expect(api.called('POST /auth/action/reset-password')[0]!.body).toEqual({
      oobCode: 'xyz',
      newPassword: 'Reindeer-Games-2026',
    });
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(recordedEvents()).toEqual(['password_reset']);
  });

  it("shows the API's WEAK_PASSWORD message on the field (e.g. the account's own e-mail)", async () => {
    const api = fakeApi({
      'POST /auth/action/check': () => json(200, { mode: 'resetPassword', email: 'h***y@example.com' }),
      'POST /auth/action/reset-password': () =>
        apiError(400, 'WEAK_PASSWORD', 'Do not use your email address as your password', [
          { path: 'body.newPassword', message: 'Do not use your email address as your password' },
        ]),
    });
    renderAuthPage(<VerifyActionPage />, { path: resetUrl, fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), 'holly@example.com');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    await waitFor(() =>
      expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(/Do not use your email address/),
    );
  });

  it('an expired or used reset link offers a new one', async () => {
    const api = fakeApi({ 'POST /auth/action/check': expired });
    renderAuthPage(<VerifyActionPage />, { path: resetUrl, fetchFn: api.fetchFn });
    expect(await screen.findByRole('heading', { name: 'This link has expired' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ask for a new reset link' })).toHaveAttribute('href', '/forgot-password');
  });

  it('a link spent between the check and the save turns into the used-link state', async () => {
    const api = fakeApi({
      'POST /auth/action/check': () => json(200, { mode: 'resetPassword', email: 'h***y@example.com' }),
      'POST /auth/action/reset-password': used,
    });
    renderAuthPage(<VerifyActionPage />, { path: resetUrl, fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), 'Reindeer-Games-2026');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByRole('heading', { name: 'This link has been used or is not valid' })).toBeInTheDocument();
  });
});
