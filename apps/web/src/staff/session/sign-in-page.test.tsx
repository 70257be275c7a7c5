import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignInPage } from './sign-in-page';

const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const token = (staff: boolean) => `${b64({ alg: 'ES256' })}.${b64({ sub: 'u1', dashboard_user: staff })}.sig`;
const json = (status: number, body: unknown) =>
  new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/** The API as the staff app meets it: no app check needed (mode off), sign-in answering `idToken`. */
function fakeApi(idToken: string) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = String(url).replace(/^.*\/api\/v1/, '');
      calls.push(`${init?.method ?? 'GET'} ${path}`);
      if (path === '/app-check/challenge') return json(404, { error: 'off', code: 'NOT_FOUND' });
      if (path === '/auth/sign-in')
        return json(200, {
          idToken,
          expiresAt: '2026-12-01T00:00:00.000Z',
          user: { email: 'elf@kringle.test', firstName: 'Buddy' },
        });
      if (path === '/auth/sign-out') return json(204, null);
      return json(404, { error: 'no', code: 'NOT_FOUND' });
    }),
  );
  return calls;
}

async function signInWith(idToken: string) {
  const calls = fakeApi(idToken);
  const onSignedIn = vi.fn();
  render(<SignInPage onSignedIn={onSignedIn} />);
  await userEvent.type(screen.getByLabelText('E-mail'), 'someone@kringle.test');
  await userEvent.type(screen.getByLabelText('Password'), 'HoHoHo-2026!');
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  return { calls, onSignedIn };
}

describe('staff sign-in', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("refuses a customer account with 'Staff only' and signs it out again", async () => {
    const { calls, onSignedIn } = await signInWith(token(false));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Staff only');
    expect(screen.getByRole('link', { name: 'the booking site' })).toHaveAttribute('href', '/');
    expect(document.title).toMatch(/^Sign in \| Staff \| /);
    expect(onSignedIn).not.toHaveBeenCalled();
    expect(calls).toContain('POST /auth/sign-out');
  });

  it('lets a staff account in', async () => {
    const { calls, onSignedIn } = await signInWith(token(true));
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalledWith({ email: 'elf@kringle.test', firstName: 'Buddy' }));
    expect(calls).not.toContain('POST /auth/sign-out');
  });
});
