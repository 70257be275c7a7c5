import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { Avatar } from '../../components/ui/avatar';
import { HelpIcon, LogoutIcon, UserIcon } from '../../components/ui/icons';
import { NAV_ITEMS } from './nav-items';

export interface BottomTabBarProps {
  displayName: string;
  initials: string;
  /** The location label, rendered only while the menu is open. */
  locationLabel: ReactNode;
  onLogout: () => void;
  onHelp: () => void;
  onEditProfile: () => void;
  onChangePassword: () => void;
}

const menuItemClass = 'flex min-h-11 cursor-pointer items-center gap-2 rounded-xl px-3 font-medium outline-none';

const tabClass = 'flex min-h-14 flex-1 flex-col items-center justify-center gap-0.5 px-1 text-xs font-medium';

/** Screens 800 px wide or less (spec §2): the sidebar's items plus Profile and Help. */
export function BottomTabBar({ displayName, initials, locationLabel, onLogout, onHelp, onEditProfile, onChangePassword }: BottomTabBarProps) {
  return (
    <nav
      aria-label="Main"
      data-testid="bottom-tab-bar"
      className="fixed inset-x-0 bottom-0 z-30 border-t border-cream-300 bg-cream-50/95 pb-[env(safe-area-inset-bottom)] backdrop-blur"
    >
      <ul className="mx-auto flex max-w-xl">
        {NAV_ITEMS.map((item) => (
          <li key={item.to} className="flex flex-1">
            <NavLink to={item.to} className={({ isActive }) => clsx(tabClass, isActive ? 'text-festive-700' : 'text-ink-600')}>
              {item.icon}
              <span className="text-center leading-tight">{item.label}</span>
            </NavLink>
          </li>
        ))}
        <li className="flex flex-1">
          <DropdownMenu.Root>
            <DropdownMenu.Trigger className={clsx(tabClass, 'text-ink-600 data-[state=open]:text-festive-700')}>
              <UserIcon />
              <span>Profile</span>
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content
                side="top"
                align="end"
                sideOffset={8}
                collisionPadding={12}
                className="z-40 w-64 rounded-2xl border border-cream-300 bg-cream-50 p-2 shadow-lg"
              >
                <div className="flex items-start gap-3 px-3 py-2">
                  <Avatar initials={initials} size="sm" />
                  {/* Long names wrap rather than being cut. */}
                  <div className="min-w-0 [overflow-wrap:anywhere]">
                    <p className="font-semibold text-ink-900" data-testid="profile-name">
                      {displayName}
                    </p>
                    {locationLabel}
                  </div>
                </div>
                <DropdownMenu.Separator className="my-1 h-px bg-cream-200" />
                <DropdownMenu.Item onSelect={onEditProfile} className={clsx(menuItemClass, 'text-ink-900 data-highlighted:bg-cream-200')}>
                  <UserIcon />
                  Edit name and phone
                </DropdownMenu.Item>
                <DropdownMenu.Item onSelect={onChangePassword} className={clsx(menuItemClass, 'text-ink-900 data-highlighted:bg-cream-200')}>
                  <UserIcon />
                  Change password
                </DropdownMenu.Item>
                <DropdownMenu.Separator className="my-1 h-px bg-cream-200" />
                <DropdownMenu.Item onSelect={onLogout} className={clsx(menuItemClass, 'text-festive-700 data-highlighted:bg-festive-50')}>
                  <LogoutIcon />
                  Logout
                </DropdownMenu.Item>
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
        </li>
        <li className="flex flex-1">
          <button type="button" onClick={onHelp} className={clsx(tabClass, 'text-ink-600')}>
            <HelpIcon />
            <span>Help</span>
          </button>
        </li>
      </ul>
    </nav>
  );
}
