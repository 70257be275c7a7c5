import { screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  apiError,
  fakeApi,
  json,
  recordedEvents,
  renderAuthPage,
  session,
  staffToken,
  testUser,
} from './auth-test-support';
import { LoginPage } from './login-page';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const verified = { ...testUser, emailVerified: true };

describe('LoginPage', { timeout: 20_000 }, () => {
  beforeEach(() => {
    window.__kringleAnalytics = [];
    vi.mocked(toast.error).mockClear();
  });

  it('shows inline errors linked to their fields, with the spec e-mail rule', async () => {
    const api = fakeApi({});
    renderAuthPage(<LoginPage />, { path: '/login', fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const email = screen.getByLabelText('Email address');
    // The schema loads once the form is first used (lazy-resolver.ts), so the very first check may wait for it.
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription(/Enter a valid email address/);
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(/Required/);

    // A top-level part of at least two letters (spec §5).
    await user.type(email, 'holly@example.c');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(email).toHaveAccessibleDescription(/Enter a valid email address/);
    await user.type(email, 'om');
    await waitFor(() => expect(email).not.toHaveAttribute('aria-invalid'));
    expect(api.calls).toEqual([]);
  });

  it('disables the button and says it is busy while signing in, then stores the session', async () => {
    let release: (r: Response) => void = () => {};
    const api = fakeApi({ 'POST /auth/sign-in': () => new Promise<Response>((resolve) => (release = resolve)) });
    const { store } = renderAuthPage(<LoginPage />, { path: '/login', fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email address'), 'Holly@Example.com ');
    await user.type(screen.getByLabelText('Password'), 'HoHoHo-2026!');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const busy = await screen.findByRole('button', { name: 'Logging in...' });
    expect(busy).toBeDisabled();
    expect(api.called('POST /auth/sign-in')[0]!.body).toEqual({ email: 'holly@example.com', password: 'HoHoHo-2026!' });
    release(await session(verified));
    await waitFor(() => expect(store.getState().auth.user?.email).toBe('holly@example.com'));
    expect(recordedEvents()).toEqual(['login']);
  });

  it('says wrong credentials in plain words, with a way to reset', async () => {
    const api = fakeApi({
      'POST /auth/sign-in': () => apiError(401, 'INVALID_CREDENTIALS', 'The email address or password is incorrect.'),
    });
    renderAuthPage(<LoginPage />, { path: '/login', fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email address'), 'holly@example.com');
    await user.type(screen.getByLabelText('Password'), 'nope-nope');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The email address or password is incorrect.');
    expect(alert.querySelector('a')).toHaveAttribute('href', '/forgot-password');
    expect(recordedEvents()).toEqual([]);
  });

  it("refuses a staff token: 'Not Authorized to login', nothing stored", async () => {
    const api = fakeApi({
      'POST /auth/sign-in': () => session(verified, staffToken),
      'POST /auth/sign-out': () => json(204, null),
    });
    const { store, purgePersisted } = renderAuthPage(<LoginPage />, { path: '/login', fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email address'), 'elf@kringle.test');
    await user.type(screen.getByLabelText('Password'), 'HoHoHo-2026!');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Not Authorized to login');
    // Said once (issue 37 item 10), with the way to the staff app.
    expect(within(alert).getByRole('link', { name: 'staff app' })).toHaveAttribute('href', '/staff');
    expect(toast.error).not.toHaveBeenCalled();
    expect(store.getState().auth.user).toBeNull();
    expect(purgePersisted).toHaveBeenCalled();
    expect(recordedEvents()).toEqual([]);
  });

  it("refuses a staff account's second-step answer as a staff account, and stores nothing", async () => {
    const api = fakeApi({ 'POST /auth/sign-in': () => json(200, { mfaRequired: true, mfaToken: 'mfa-token' }) });
    const { store } = renderAuthPage(<LoginPage />, { path: '/login', fetchFn: api.fetchFn });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email address'), 'manager@kringle.test');
    await user.type(screen.getByLabelText('Password'), 'HoHoHo-2026!');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not Authorized to login');
    expect(store.getState().auth.user).toBeNull();
    expect(recordedEvents()).toEqual([]);
  });

  it('shows and hides the password on request', async () => {
    renderAuthPage(<LoginPage />, { path: '/login', fetchFn: fakeApi({}).fetchFn });
    const user = userEvent.setup();
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });
});
