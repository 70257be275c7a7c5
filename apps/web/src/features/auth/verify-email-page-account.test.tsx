import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi, json, recordedEvents, renderAuthPage, session, testUser } from './auth-test-support';
import { VerifyEmailPage } from './verify-email-page';
import { freshTab, signedIn } from './verify-email-page-fixture';

// What the page does with the account: Verify (refresh and reload), changing the address, and Back to login.
vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

describe('VerifyEmailPage (spec §2)', { timeout: 20_000 }, () => {
  beforeEach(freshTab);

  it("'Verify Email address' refreshes the token, reloads the user, then the page after 3 s", async () => {
    const setTimeoutSpy = vi.spyOn(window, 'setTimeout');
    const verified = { ...testUser, emailVerified: true };
    const api = fakeApi({
      'POST /auth/refresh': () => session(verified),
      'GET /user/me': () => json(200, { user: verified }),
    });
    const reloadPage = vi.fn();
    const { store } = renderAuthPage(<VerifyEmailPage reloadPage={reloadPage} />, {
      path: '/bookings',
      auth: signedIn,
      fetchFn: api.fetchFn,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Verify Email address' }));
    await screen.findByText('Thanks! This page will reload in a moment.');
    expect(api.called('POST /auth/refresh')).toHaveLength(1);
    expect(api.called('GET /user/me')).toHaveLength(1);
    expect(store.getState().auth.user?.emailVerified).toBe(true);
    // Reloaded only after the user: one 3000 ms timer whose callback reloads the page.
    expect(reloadPage).not.toHaveBeenCalled();
    const timer = setTimeoutSpy.mock.calls.find(([, ms]) => ms === 3000);
    expect(timer).toBeDefined();
    act(() => (timer![0] as () => void)());
    expect(reloadPage).toHaveBeenCalledTimes(1);
    setTimeoutSpy.mockRestore();
  });

  it("'Verify Email address' before the link is opened says so, and does not reload", async () => {
    const setTimeoutSpy = vi.spyOn(window, 'setTimeout');
    const api = fakeApi({
      'POST /auth/refresh': () => session(testUser),
      'GET /user/me': () => json(200, { user: testUser }),
    });
    const reloadPage = vi.fn();
    renderAuthPage(<VerifyEmailPage reloadPage={reloadPage} />, {
      path: '/bookings',
      auth: signedIn,
      fetchFn: api.fetchFn,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Verify Email address' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^Not verified yet: open the link we sent to holly@example\.com, then press .Verify Email address. again\.$/,
    );
    expect(screen.queryByText('Thanks! This page will reload in a moment.')).toBeNull();
    expect(setTimeoutSpy.mock.calls.find(([, ms]) => ms === 3000)).toBeUndefined();
    expect(screen.getByRole('button', { name: 'Verify Email address' })).toBeEnabled();
    expect(reloadPage).not.toHaveBeenCalled();
    setTimeoutSpy.mockRestore();
  });

  it(
    "'Verify Email address' when the server cannot answer says so, not 'Not verified yet', and keeps the " + 'user',
    async () => {
      const down = () =>
        json(503, { error: 'Something went wrong on our side. Please try again.', code: 'SERVICE_UNAVAILABLE' });
      const api = fakeApi({ 'POST /auth/refresh': down, 'GET /user/me': down });
      const { store } = renderAuthPage(<VerifyEmailPage reloadPage={vi.fn()} />, {
        path: '/bookings',
        auth: signedIn,
        fetchFn: api.fetchFn,
      });
      fireEvent.click(screen.getByRole('button', { name: 'Verify Email address' }));
      await waitFor(() =>
        expect(toast.error).toHaveBeenCalledWith('Something went wrong on our side. Please try again.'),
      );
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.getByRole('button', { name: 'Verify Email address' })).toBeEnabled();
      expect(store.getState().auth.user).toEqual(testUser);
    },
  );

  it(
    "'Wrong address? Change it' opens a form with the address filled in; Cancel closes it and changes " + 'nothing',
    async () => {
      const api = fakeApi({});
      const { store, router } = renderAuthPage(<VerifyEmailPage />, {
        path: '/bookings',
        auth: signedIn,
        fetchFn: api.fetchFn,
      });
      const user = userEvent.setup();
      await user.click(screen.getByRole('button', { name: 'Wrong address? Change it' }));
      const form = await screen.findByRole('form', { name: 'Change your email address' });
      expect(form).toBeInTheDocument();
      expect(screen.getByLabelText('Email address')).toHaveValue('holly@example.com');
      await waitFor(() => expect(screen.getByLabelText('Email address')).toHaveFocus());
      expect(screen.getByLabelText('Password')).toHaveValue('');
      await user.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('form', { name: 'Change your email address' })).toBeNull();
      await waitFor(() => expect(screen.getByRole('button', { name: 'Wrong address? Change it' })).toHaveFocus());
      // Still signed in, still here: the old way signed the family out and sent it to /register.
      expect(router.state.location.pathname).toBe('/bookings');
      expect(store.getState().auth.user).toEqual(testUser);
      expect(api.called('POST /auth/sign-out')).toHaveLength(0);
    },
  );

  it('saves the new address on this account, then shows it and that a new link went there', async () => {
    const moved = { ...testUser, email: 'holly@example.net' };
    const api = fakeApi({ 'PUT /user/me/email': () => json(200, { user: moved }) });
    const { store } = renderAuthPage(<VerifyEmailPage />, { path: '/bookings', auth: signedIn, fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Wrong address? Change it' }));
    await user.clear(await screen.findByLabelText('Email address'));
    await user.type(screen.getByLabelText('Email address'), 'holly@example.net');
    await user.type(screen.getByLabelText('Password'), 'Sleigh-Bells-Ring-42');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Email address changed')).toBeInTheDocument();
    expect(api.called('PUT /user/me/email')[0]!.body).toEqual({
      email: 'holly@example.net',
      password: 'Sleigh-Bells-Ring-42',
      redirectUrl: window.location.origin,
    });
    expect(screen.getByText('Email address changed').closest('[role="status"]')).toHaveTextContent(
      /sent a new verification link to holly@example\.net\. Links sent to the old address no longer work\./,
    );
    expect(screen.getByText(/We've sent a verification link to/)).toHaveTextContent('holly@example.net');
    expect(store.getState().auth.user?.email).toBe('holly@example.net');
    expect(screen.queryByRole('form', { name: 'Change your email address' })).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Wrong address? Change it' })).toHaveFocus());
    // The change mailed a link: a re-send waits its minute, as after registering.
    expect(screen.getByRole('button', { name: /^Resend Email \((60|59) s\)$/ })).toBeDisabled();
  });

  it('shows each refusal next to its field: the same address, a taken one, a wrong password', async () => {
    const responses = [
      apiError(409, 'EMAIL_IN_USE', 'An account with this email address already exists.'),
      apiError(400, 'WRONG_PASSWORD', 'The password is not right.', [
        { path: 'body.password', message: 'The password is not right.' },
      ]),
    ];
    const api = fakeApi({ 'PUT /user/me/email': () => responses.shift()! });
    renderAuthPage(<VerifyEmailPage />, { path: '/bookings', auth: signedIn, fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Wrong address? Change it' }));
    await user.type(await screen.findByLabelText('Password'), 'Sleigh-Bells-Ring-42');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByLabelText('Email address')).toHaveAccessibleDescription(/already have/));
    expect(api.called('PUT /user/me/email')).toHaveLength(0);

    await user.clear(screen.getByLabelText('Email address'));
    await user.type(screen.getByLabelText('Email address'), 'taken@example.com');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Email address')).toHaveAccessibleDescription(
        'An account with this email address already exists.',
      ),
    );

    await user.clear(screen.getByLabelText('Email address'));
    await user.type(screen.getByLabelText('Email address'), 'free@example.com');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(/The password is not right\./),
    );
    expect(screen.getByLabelText('Email address')).not.toHaveAccessibleDescription(/already exists/);
    expect(screen.getByRole('form', { name: 'Change your email address' })).toBeInTheDocument();
    expect(screen.queryByText('Email address changed')).toBeNull();
  });

  it("'Back to login' signs out, purges and goes to /login", async () => {
    const api = fakeApi({ 'POST /auth/sign-out': () => json(204, null) });
    const { store, router, purgePersisted } = renderAuthPage(<VerifyEmailPage />, {
      path: '/bookings',
      auth: signedIn,
      fetchFn: api.fetchFn,
    });
    await userEvent.setup().click(screen.getByRole('link', { name: 'Back to login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(store.getState().auth.user).toBeNull();
    expect(purgePersisted).toHaveBeenCalled();
    expect(api.called('POST /auth/sign-out')).toHaveLength(1);
    expect(recordedEvents()).toEqual(['logout']);
  });
});
