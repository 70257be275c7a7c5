import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { customerToken, fakeApi, json, renderAuthPage, testUser } from '../../features/auth/auth-test-support';
import ProfileDialog from './profile-dialog';

// Verified: the base query answers an unverified family's changes itself.
const family = { ...testUser, emailVerified: true };
const signedIn = (user = family) => ({ user, idToken: customerToken, expiresAt: '2099-01-01T00:00:00.000Z' });
const echo = (body: unknown) =>
  json(200, {
    user: {
      ...testUser,
      ...(body as object),
      phone: (body as { phone?: string }).phone === undefined ? testUser.phone : '+61412345678',
      sms: (body as { sms?: object }).sms ?? testUser.sms,
    },
  });

describe('Your details: the mobile and SMS reminders', () => {
  it('checks an Australian mobile before sending, then saves it with the reminders asked for', async () => {
    const api = fakeApi({ 'PATCH /user/me': echo });
    renderAuthPage(<ProfileDialog mode="profile" onClose={() => {}} />, { fetchFn: api.fetchFn, auth: signedIn() });
    const mobile = await screen.findByLabelText('Mobile number (optional)');
    await userEvent.type(mobile, '(02) 9876 5432');
    await userEvent.click(screen.getByRole('checkbox', { name: /Text me a reminder the day before/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Save details' }));
    expect(mobile).toHaveAccessibleDescription(/Enter an Australian mobile number, like 0412 345 678/);
    expect(api.calls).toEqual([]);

    await userEvent.clear(mobile);
    await userEvent.type(mobile, '0412 345 678');
    await userEvent.click(screen.getByRole('button', { name: 'Save details' }));
    await waitFor(() => expect(api.called('PATCH /user/me')).toHaveLength(1));
    expect(api.calls[0]!.body).toEqual({
      firstName: 'Holly',
      lastName: 'Winters',
      phone: '+61412345678',
      sms: { reminders: true },
    });
  });

  it(
    'asks for a mobile before text reminders, and leaves a saved number alone when only the name ' + 'changes',
    async () => {
      const api = fakeApi({ 'PATCH /user/me': echo });
      const user = { ...family, phone: '+61412345678' };
      renderAuthPage(<ProfileDialog mode="profile" onClose={() => {}} />, {
        fetchFn: api.fetchFn,
        auth: signedIn(user),
      });
      const mobile = await screen.findByLabelText('Mobile number (optional)');
      expect(mobile).toHaveValue('0412 345 678');
      await userEvent.clear(mobile);
      const reminders = screen.getByRole('checkbox', { name: /Text me a reminder the day before/ });
      await userEvent.click(reminders);
      await userEvent.click(screen.getByRole('button', { name: 'Save details' }));
      expect(reminders).toHaveAccessibleDescription('Add your mobile number to get text reminders.');
      expect(api.calls).toEqual([]);

      await userEvent.click(reminders);
      await userEvent.type(mobile, '+61 412 345 678');
      await userEvent.type(screen.getByLabelText('Last name'), 's');
      await userEvent.click(screen.getByRole('button', { name: 'Save details' }));
      await waitFor(() => expect(api.called('PATCH /user/me')).toHaveLength(1));
      expect(api.calls[0]!.body).toEqual({ firstName: 'Holly', lastName: 'Winterss' });
    },
  );
});
