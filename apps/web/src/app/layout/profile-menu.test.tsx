import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import ProfileMenu from './profile-menu';

describe('the Profile menu', () => {
  it(
    'gives "Your data" (download, deletion) an entry of its own, not inside "Edit name and phone" (issue 53 item ' +
      '15)',
    async () => {
      const handlers = { onLogout: vi.fn(), onEditProfile: vi.fn(), onChangePassword: vi.fn(), onYourData: vi.fn() };
      render(
        <ProfileMenu
          displayName="Holly Winters"
          initials="HW"
          locationLabel={null}
          triggerClass=""
          focusFirstItem={false}
          {...handlers}
        />,
      );
      const items = screen.getAllByRole('menuitem').map((i) => i.textContent);
      expect(items).toEqual(['Edit name and phone', 'Change password', 'Your data', 'Logout']);
      await userEvent.click(screen.getByRole('menuitem', { name: 'Your data' }));
      expect(handlers.onYourData).toHaveBeenCalledTimes(1);
      expect(handlers.onEditProfile).not.toHaveBeenCalled();
    },
  );
});
