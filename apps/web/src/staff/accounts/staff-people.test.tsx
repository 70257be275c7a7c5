import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvitePage } from '../session/invite-page';
import { MfaEnrolPage } from '../session/mfa-enrol-page';
import { SignInPage } from '../session/sign-in-page';
import { StaffAccountsPage } from './staff-accounts-page';
import { pageOf, pagesFor, startPage } from '../shell/staff-nav';
import { fakeStaffApi, json } from '../parts/fake-staff-api';

vi.mock('qrcode', () => ({ default: { toDataURL: vi.fn(async () => 'data:image/png;base64,AAAA') } }));

const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const staffToken = `${b64({ alg: 'ES256' })}.${b64({ sub: 'u1', dashboard_user: true, staff_role: 'manager' })}.sig`;
const fakeApi = fakeStaffApi;

afterEach(() => vi.unstubAllGlobals());

describe('staff sign-in with a second step', () => {
  it('asks for the code after the password, focuses it, and signs in with it', async () => {
    const calls = fakeApi((path) => {
      if (path === '/auth/sign-in') return json(200, { mfaRequired: true, mfaToken: 'mfa-1' });
      if (path === '/auth/mfa')
        return json(200, {
          idToken: staffToken,
          expiresAt: '2026-12-01T00:00:00.000Z',
          user: { email: 'manager@kringle.test', firstName: 'Nick' },
        });
    });
    const onSignedIn = vi.fn();
    render(<SignInPage onSignedIn={onSignedIn} />);
    await userEvent.type(screen.getByLabelText('E-mail'), 'manager@kringle.test');
    await userEvent.type(screen.getByLabelText('Password'), 'HoHoHo-2026!');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const code = await screen.findByLabelText('Code');
    expect(code).toHaveFocus();
    expect(onSignedIn).not.toHaveBeenCalled();
    await userEvent.type(code, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await vi.waitFor(() =>
      expect(onSignedIn).toHaveBeenCalledWith({ email: 'manager@kringle.test', firstName: 'Nick' }),
    );
    expect(calls.find((c) => c.call === 'POST /auth/mfa')?.body).toEqual({ mfaToken: 'mfa-1', code: '123456' });
  });

  it('says a wrong code plainly and stays on the code step; a spent token goes back to the password', async () => {
    let answer = json(401, { error: 'That code is not right.', code: 'INVALID_MFA_CODE' });
    fakeApi((path) =>
      path === '/auth/sign-in'
        ? json(200, { mfaRequired: true, mfaToken: 'mfa-1' })
        : path === '/auth/mfa'
          ? answer
          : undefined,
    );
    render(<SignInPage onSignedIn={vi.fn()} />);
    await userEvent.type(screen.getByLabelText('E-mail'), 'manager@kringle.test');
    await userEvent.type(screen.getByLabelText('Password'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await userEvent.type(await screen.findByLabelText('Code'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That code is not right.');
    expect(screen.getByLabelText('Code')).toBeInTheDocument();
    answer = json(401, { error: 'Your session has ended. Please sign in again.', code: 'UNAUTHENTICATED' });
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByLabelText('Password')).toBeInTheDocument();
  });
});

describe('second-factor enrolment', () => {
  it(
    'shows the QR code and the key, confirms a code, then the 10 recovery codes until "I have saved ' + 'them"',
    async () => {
      const codes = Array.from({ length: 10 }, (_, i) => `abcde-fgh${i}${i}`);
      const calls = fakeApi((path) => {
        if (path === '/staff/mfa/setup')
          return json(200, {
            secret: 'JBSWY3DPEHPK3PXP',
            otpauthUrl: 'otpauth://totp/Kringle:m?secret=JBSWY3DPEHPK3PXP',
          });
        if (path === '/staff/mfa/confirm') return json(200, { recoveryCodes: codes });
      });
      const onEnrolled = vi.fn();
      render(<MfaEnrolPage onEnrolled={onEnrolled} onSignOut={vi.fn()} />);
      expect(await screen.findByRole('img', { name: /QR code/ })).toHaveAttribute('src', 'data:image/png;base64,AAAA');
      expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument();
      await userEvent.type(screen.getByLabelText('Code from the app'), '654321');
      await userEvent.click(screen.getByRole('button', { name: 'Turn on the second step' }));
      const list = await screen.findByRole('list', { name: 'Recovery codes' });
      expect(
        within(list)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual(codes);
      expect(screen.getByRole('heading', { name: 'Save your recovery codes' })).toHaveFocus();
      const go = screen.getByRole('button', { name: 'Continue to the staff app' });
      expect(go).toBeDisabled();
      await userEvent.click(screen.getByLabelText('I have saved them'));
      await userEvent.click(go);
      expect(onEnrolled).toHaveBeenCalled();
      expect(calls.find((c) => c.call === 'POST /staff/mfa/confirm')?.body).toEqual({ code: '654321' });
    },
  );
});

describe('second step offered to set staff', () => {
  it('can be put off with "Not now" instead of signing out', async () => {
    fakeApi((path) =>
      path === '/staff/mfa/setup'
        ? json(200, { secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/K:e?secret=JBSWY3DPEHPK3PXP' })
        : undefined,
    );
    const onNotNow = vi.fn();
    render(<MfaEnrolPage onEnrolled={vi.fn()} onSignOut={vi.fn()} onNotNow={onNotNow} />);
    await screen.findByText('JBSWY3DPEHPK3PXP');
    expect(screen.queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(onNotNow).toHaveBeenCalled();
  });
});

describe('invitation page', () => {
  it('sets the password with the code from the link', async () => {
    const calls = fakeApi((path) =>
      path === '/staff/invitations/accept'
        ? json(200, { message: 'Your password is set. Sign in to the staff app.' })
        : undefined,
    );
    render(<InvitePage code="invite-code-123" />);
    await userEvent.type(screen.getByLabelText('New password'), 'Tinsel-Town-2026');
    await userEvent.type(screen.getByLabelText('Repeat the password'), 'Tinsel-Town-2026');
    await userEvent.click(screen.getByRole('button', { name: 'Set my password' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your password is set.');
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/staff');
    expect(calls[0]).toEqual({
      call: 'POST /staff/invitations/accept',
      body: { code: 'invite-code-123', password: 'Tinsel-Town-2026' },
    });
  });

  it('refuses two different passwords before sending anything, and says when the link has no code', async () => {
    const calls = fakeApi(() => undefined);
    const { unmount } = render(<InvitePage code="c0de-c0de-c0de" />);
    await userEvent.type(screen.getByLabelText('New password'), 'Tinsel-Town-2026');
    await userEvent.type(screen.getByLabelText('Repeat the password'), 'Tinsel-Town-2027');
    await userEvent.click(screen.getByRole('button', { name: 'Set my password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('not the same');
    expect(calls).toEqual([]);
    unmount();
    render(<InvitePage code={null} />);
    expect(screen.getByRole('alert')).toHaveTextContent('no invitation code');
  });
});

describe("manager's Staff page", () => {
  const locations = [
    { id: 'l-syd', name: 'Sydney Pitt Street', address: '', timezone: 'Australia/Sydney', queueOpensAt: null },
    { id: 'l-bne', name: 'Brisbane Queen Street', address: '', timezone: 'Australia/Brisbane', queueOpensAt: null },
  ];
  const account = (over: object) => ({
    id: 'a1',
    email: 'elf@kringle.test',
    role: 'set',
    locationIds: [],
    mfaEnrolled: false,
    active: true,
    lastSignInAt: null,
    invitationPending: false,
    ...over,
  });

  it('lists the team, invites with a role and locations, and deactivates someone else (never oneself)', async () => {
    const calls = fakeApi((path, init) => {
      if (path === '/staff/accounts' && (init?.method ?? 'GET') === 'GET')
        return json(200, {
          items: [
            account({}),
            account({ id: 'me', email: 'manager@kringle.test', role: 'manager', mfaEnrolled: true }),
          ],
        });
      if (path === '/staff/accounts')
        return json(201, account({ id: 'a2', email: 'holly@kringle.test', invitationPending: true }));
      if (path === '/staff/accounts/a1') return json(200, account({ active: false }));
    });
    render(<StaffAccountsPage locations={locations} myId="me" />);
    expect(await screen.findByText('elf@kringle.test')).toBeInTheDocument();
    expect(screen.getByText('manager@kringle.test (you)')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Deactivate manager@kringle.test' })).not.toBeInTheDocument();

    const invite = screen.getByRole('form', { name: 'Invite someone' });
    await userEvent.type(within(invite).getByLabelText('E-mail'), 'holly@kringle.test');
    await userEvent.selectOptions(within(invite).getByLabelText('Role'), 'set');
    await userEvent.click(within(invite).getByLabelText('Sydney Pitt Street'));
    await userEvent.click(within(invite).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to holly@kringle.test.')).toBeInTheDocument();
    expect(calls.find((c) => c.call === 'POST /staff/accounts')?.body).toEqual({
      email: 'holly@kringle.test',
      role: 'set',
      locationIds: ['l-syd'],
    });

    await userEvent.click(screen.getByRole('button', { name: 'Deactivate elf@kringle.test' }));
    expect(await screen.findByText('elf@kringle.test deactivated: signed out everywhere.')).toBeInTheDocument();
    expect(calls.find((c) => c.call === 'PATCH /staff/accounts/a1')?.body).toEqual({ active: false });
  });
});

describe('the nav by role', () => {
  it('shows each role only what it may do, and sends a page it may not see to its first', () => {
    expect(pagesFor('set')).toEqual(['run-sheet', 'check-in', 'walk-in', 'photos']);
    expect(pagesFor('support')).toEqual(['run-sheet', 'support', 'disputes', 'vouchers']);
    expect(pagesFor('manager')).toEqual([
      'run-sheet',
      'check-in',
      'walk-in',
      'photos',
      'support',
      'audit',
      'disputes',
      'vouchers',
      'live',
      'reports',
      'promo-codes',
      'closures',
      'season',
      'staff',
    ]);
    expect(pageOf('/staff/people', 'set')).toBe('run-sheet');
    expect(pageOf('/staff', 'support')).toBe('run-sheet');
    expect(startPage('/staff', 'support')).toBe('support');
    expect(startPage('/staff/', 'support')).toBe('support');
    expect(startPage('/staff', 'manager')).toBe('run-sheet');
    expect(startPage('/staff/support/audit', 'manager')).toBe('audit');
    expect(startPage('/staff/reports', 'manager')).toBe('reports');
    expect(pageOf('/staff/reports', 'set')).toBe('run-sheet');
    expect(pageOf('/staff/check-in', 'support')).toBe('support');
    expect(pageOf('/staff/photos', 'set')).toBe('photos');
    expect(pageOf('/staff/photos', 'support')).toBe('support');
    expect(pageOf('/staff/people/', 'manager')).toBe('staff');
    expect(pageOf('/staff/season', 'manager')).toBe('season');
    expect(pageOf('/staff/season', 'support')).toBe('support');
    expect(pageOf('/staff/support/disputes', 'support')).toBe('disputes');
  });
});
