import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StaffApp } from './staff-app';

const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const staffToken = `${b64({ alg: 'ES256' })}.${b64({ sub: 'u1', dashboard_user: true, staff_role: 'set' })}.sig`;
const reply = (status: number, body: unknown) =>
  new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
const ME = {
  id: '7f000000-0000-4000-8000-000000000001',
  email: 'elf@kringle.test',
  role: 'set',
  locationIds: [],
  mfaEnrolled: true,
  mfaRequired: false,
};

/** A signed-in set member's staff app against a stand-in API; `everywhere` answers the sign-out-everywhere call. */
function signedInApp(everywhere: () => Response) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = String(url).replace(/^.*\/api\/v1/, '');
      if (path === '/app-check/challenge') return reply(404, { error: 'off', code: 'NOT_FOUND' });
      calls.push(`${init?.method ?? 'GET'} ${path} ${new Headers(init?.headers).get('authorization') ?? ''}`.trim());
      if (path === '/auth/refresh')
        return reply(200, {
          idToken: staffToken,
          expiresAt: '2026-12-01T00:00:00.000Z',
          user: { email: ME.email, firstName: 'Buddy' },
        });
      if (path === '/staff/me') return reply(200, ME);
      if (path === '/staff/catalogue') return reply(200, { locations: [], packages: [], addOns: [] });
      if (path === '/staff/sign-out-everywhere') return everywhere();
      return reply(404, { error: 'no', code: 'NOT_FOUND' });
    }),
  );
  render(<StaffApp />);
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('sign out everywhere (issue 34)', () => {
  it("ends every session of the member with the member's own token, then shows the sign-in saying so", async () => {
    const calls = signedInApp(() => reply(204, null));
    // In the header's menu (issue 53 item 11).
    await userEvent.click(await screen.findByRole('button', { name: 'Menu' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('You are signed out on every device.');
    expect(calls).toContain(`POST /staff/sign-out-everywhere Bearer ${staffToken}`);
    // Signed out here too: no session is picked up again behind the member's back.
    expect(calls.filter((c) => c.startsWith('POST /auth/refresh'))).toHaveLength(1);
  });

  it('keeps the member signed in and says why when the server cannot be told', async () => {
    signedInApp(() => reply(503, { error: 'We are busy. Please try again in a moment.', code: 'SERVICE_UNAVAILABLE' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Menu' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('We are busy. Please try again in a moment.');
    expect(screen.getByRole('button', { name: 'Sign out everywhere' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Sign in' })).not.toBeInTheDocument();
  });
});
