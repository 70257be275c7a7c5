import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi, json, recordedEvents, renderAuthPage } from './auth-test-support';
import { noteVerificationFailed, noteVerificationSending, noteVerificationSent } from './verification-sent';
import { VerifyEmailPage } from './verify-email-page';
import { freshTab, signedIn } from './verify-email-page-fixture';

// The page's wording and Resend; Verify, changing the address and Back to login are in
// verify-email-page-account.test.tsx.
vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

describe('VerifyEmailPage (spec §2)', { timeout: 20_000 }, () => {
  beforeEach(freshTab);

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
});
