import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
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
import { noteVerificationFailed, noteVerificationSending, noteVerificationSent } from './verification-sent';
import { VerifyEmailPage } from './verify-email-page';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const signedIn = { user: testUser, idToken: customerToken, expiresAt: '2099-01-01T00:00:00.000Z' };

describe('VerifyEmailPage (spec §2)', { timeout: 20_000 }, () => {
  beforeEach(() => {
    window.sessionStorage.clear();
    window.__kringleAnalytics = [];
    vi.mocked(toast.error).mockClear();
    vi.mocked(toast.success).mockClear();
  });

  it('shows the spec wording', () => {
    renderAuthPage(<VerifyEmailPage />, { path: '/bookings', auth: signedIn, fetchFn: fakeApi({}).fetchFn });
    expect(screen.getByRole('heading', { name: 'Verify your email address' })).toBeInTheDocument();
    // Nothing known to be sent from this tab (a later sign-in, the seeded demo account): no claim that a link went
    // (issue 53).
    expect(screen.getByText(/To use your account, confirm that/)).toHaveTextContent(
      /holly@example\.com is yours.*No email from us yet\? Press .Resend Email. below\./,
    );
    expect(screen.queryByText(/We've sent a verification link/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Verify Email address' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to login' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Did not receive the email?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend Email' })).toBeInTheDocument();
  });

  it('says a link was sent only once one was, and shows why a send from registration failed', async () => {
    renderAuthPage(<VerifyEmailPage />, { path: '/bookings', auth: signedIn, fetchFn: fakeApi({}).fetchFn });
    act(() => noteVerificationSending('holly@example.com'));
    expect(screen.getByText(/We're sending a verification link to/)).toHaveTextContent('holly@example.com');
    act(() => noteVerificationFailed('holly@example.com', 'That link is not allowed.'));
    expect(screen.getByRole('alert')).toHaveTextContent(
      /We could not send the verification email.*That link is not allowed\..*Resend Email/,
    );
    expect(screen.queryByText(/We've sent a verification link/)).toBeNull();
    act(() => noteVerificationSent('holly@example.com'));
    expect(screen.getByText(/We've sent a verification link to/)).toHaveTextContent('holly@example.com');
    expect(screen.queryByRole('alert')).toBeNull();
    // A send cut off by a reload (no answer for a long while) is not claimed either.
    act(() => noteVerificationSending('holly@example.com', Date.now() - 60_000));
    expect(screen.queryByText(/We're sending/)).toBeNull();
    expect(screen.getByText(/To use your account, confirm that/)).toBeInTheDocument();
    // Another address's send says nothing about this one.
    act(() => noteVerificationSent('someone@example.com'));
    expect(screen.queryByText(/We've sent a verification link/)).toBeNull();
  });

  it('a refused resend says so on the screen, not only in a toast', async () => {
    const api = fakeApi({
      'POST /user/auth/email-verification': () => apiError(400, 'REDIRECT_NOT_ALLOWED', 'That link is not allowed.'),
    });
    renderAuthPage(<VerifyEmailPage />, { path: '/bookings', auth: signedIn, fetchFn: api.fetchFn });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Resend Email' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /We could not send the verification email.*That link is not allowed\./,
    );
    expect(toast.error).toHaveBeenCalledWith('That link is not allowed.');
    expect(screen.queryByText(/sent a new verification link/)).toBeNull();
  });

  it("'Resend Email' says 'Sending...' while busy, then the sent text and the server's message", async () => {
    let release: (r: Response) => void = () => {};
    const api = fakeApi({
      'POST /user/auth/email-verification': () => new Promise<Response>((resolve) => (release = resolve)),
    });
    renderAuthPage(<VerifyEmailPage />, { path: '/bookings', auth: signedIn, fetchFn: api.fetchFn });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Resend Email' }));
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled();
    expect(api.called('POST /user/auth/email-verification')[0]!.body).toEqual({ redirectUrl: window.location.origin });
    release(await json(200, { message: 'Check your inbox, Holly' }));
    expect(await screen.findByText(/sent a new verification link/)).toHaveTextContent(/check your spam/);
    expect(toast.success).toHaveBeenCalledWith('Check your inbox, Holly');
    // The API sends one link per 60 s: the button waits it out, counting down, so taps cannot stack toasts.
    expect(screen.getByRole('button', { name: /^Resend Email \(60 s\)$/ })).toBeDisabled();
    expect(screen.getByText('You can ask for another link in 60 seconds.')).toBeInTheDocument();
    expect(recordedEvents()).toEqual(['resend_email_verification']);
  });

  it('straight after registering, Resend waits out the rest of the minute instead of meeting the limit', () => {
    noteVerificationSent('holly@example.com', Date.now() - 10_000);
    const api = fakeApi({});
    renderAuthPage(<VerifyEmailPage />, { path: '/bookings', auth: signedIn, fetchFn: api.fetchFn });
    expect(screen.getByRole('button', { name: /^Resend Email \((50|49) s\)$/ })).toBeDisabled();
    expect(screen.getByText(/^You can ask for another link in (50|49) seconds\.$/)).toBeInTheDocument();
  });

  it("counts down the server's Retry-After on a 429 and enables Resend when it ends", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const limited = () =>
        new Response(JSON.stringify({ error: 'Too many attempts. Try again in 3 seconds.', code: 'RATE_LIMITED' }), {
          status: 429,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '3' },
        });
      const api = fakeApi({ 'POST /user/auth/email-verification': limited });
      renderAuthPage(<VerifyEmailPage />, { path: '/bookings', auth: signedIn, fetchFn: api.fetchFn });
      fireEvent.click(screen.getByRole('button', { name: 'Resend Email' }));
      expect(await screen.findByRole('button', { name: /^Resend Email \([1-3] s\)$/ })).toBeDisabled();
      fireEvent.click(screen.getByRole('button', { name: /^Resend Email/ }));
      expect(api.called('POST /user/auth/email-verification')).toHaveLength(1);
      expect(toast.error).not.toHaveBeenCalled();
      await act(async () => vi.advanceTimersByTimeAsync(4000));
      expect(screen.getByRole('button', { name: 'Resend Email' })).toBeEnabled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('falls back to the spec toasts when the response has no message', async () => {
    const api = fakeApi({ 'POST /user/auth/email-verification': () => json(200, { message: '' }) });
    renderAuthPage(<VerifyEmailPage />, { path: '/bookings', auth: signedIn, fetchFn: api.fetchFn });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Resend Email' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Verification email sent successfully'));
  });

  it("failure toasts the response's message, or 'Something went wrong'", async () => {
    const responses = [
      apiError(409, 'ALREADY_VERIFIED', 'Your email address is already verified.'),
      new Response(null, { status: 400 }),
    ];
    const api = fakeApi({ 'POST /user/auth/email-verification': () => responses.shift()! });
    renderAuthPage(<VerifyEmailPage />, { path: '/bookings', auth: signedIn, fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Resend Email' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Your email address is already verified.'));
    // Only a 429 starts the wait: other failures leave the button ready.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Resend Email' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Resend Email' }));
    await waitFor(() => expect(toast.error).toHaveBeenLastCalledWith('Something went wrong'));
    expect(screen.queryByText(/sent a new verification link/)).toBeNull();
  });

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
