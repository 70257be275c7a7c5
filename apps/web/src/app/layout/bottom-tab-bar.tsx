import { clsx } from 'clsx';
import { lazy, startTransition, Suspense, useState } from 'react';
import { NavLink } from 'react-router';
import { HelpIcon, UserIcon } from '../../components/ui/icons';
import { NAV_ITEMS } from './nav-items';
import type { ProfileMenuProps } from './profile-menu';

/** What the Profile menu shows and does. */
type ProfileTabProps = Omit<ProfileMenuProps, 'triggerClass' | 'focusFirstItem'>;

export interface BottomTabBarProps extends ProfileTabProps {
  onHelp: () => void;
  /**
   * The page is one where spec §2 shows the help launcher on a phone (the wizard): the tab's Help is that launcher,
   * in the place Help has on every other page (WCAG 3.2.6; one Help, not two: issue 53 item 12; decision 0107).
   */
  helpIsLauncher?: boolean;
}

const tabClass = 'flex min-h-14 flex-1 flex-col items-center justify-center gap-0.5 px-1 text-xs font-medium';
const profileTriggerClass = clsx(tabClass, 'text-ink-600 data-[state=open]:text-festive-700');

// The menu and its positioning code (about 12 kB) load on the first tap of Profile, not with every page (decision
// 0036).
const loadProfileMenu = () => import('./profile-menu');
const ProfileMenu = lazy(loadProfileMenu);

/**
 * Profile: a plain button until first used, then the Radix menu, mounted open. The swap is a
 * transition inside a boundary that already shows the button, so the button stays on screen
 * (and focused) while the menu loads, and no fallback flashes.
 */
function ProfileTab(props: ProfileTabProps) {
  const [opened, setOpened] = useState<{ byKeyboard: boolean } | null>(null);
  const preload = () => void loadProfileMenu().catch(() => undefined);
  const button = (
    <button
      type="button"
      aria-haspopup="menu"
      aria-expanded={false}
      className={profileTriggerClass}
      onPointerEnter={preload}
      onFocus={preload}
      // A click from Enter or Space has no pointer (detail 0): Radix then starts on the first item, as it does for
      // keys.
      onClick={(event) => startTransition(() => setOpened({ byKeyboard: event.detail === 0 }))}
    >
      <UserIcon />
      <span>Profile</span>
    </button>
  );
  return (
    <Suspense fallback={button}>
      {opened ? (
        <ProfileMenu {...props} triggerClass={profileTriggerClass} focusFirstItem={opened.byKeyboard} />
      ) : (
        button
      )}
    </Suspense>
  );
}

/** Screens 800 px wide or less (spec §2): the sidebar's items plus Profile and Help. */
export function BottomTabBar({
  displayName,
  initials,
  locationLabel,
  onLogout,
  onHelp,
  helpIsLauncher = false,
  onEditProfile,
  onChangePassword,
  onYourData,
}: BottomTabBarProps) {
  return (
    <nav
      aria-label="Main"
      data-testid="bottom-tab-bar"
      className={
        'fixed inset-x-0 bottom-0 z-30 border-t border-cream-300 bg-cream-50/95 ' +
        'pb-[env(safe-area-inset-bottom)] backdrop-blur'
      }
    >
      <ul className="mx-auto flex max-w-xl">
        {NAV_ITEMS.map((item) => (
          <li key={item.to} className="flex flex-1">
            <NavLink
              to={item.to}
              className={({ isActive }) => clsx(tabClass, isActive ? 'text-festive-700' : 'text-ink-600')}
            >
              {item.icon}
              <span className="text-center leading-tight">{item.label}</span>
            </NavLink>
          </li>
        ))}
        <li className="flex flex-1">
          <ProfileTab
            displayName={displayName}
            initials={initials}
            locationLabel={locationLabel}
            onLogout={onLogout}
            onEditProfile={onEditProfile}
            onChangePassword={onChangePassword}
            onYourData={onYourData}
          />
        </li>
        <li className="flex flex-1">
          <button
            type="button"
            onClick={onHelp}
            data-testid={helpIsLauncher ? 'help-launcher' : undefined}
            className={clsx(tabClass, 'text-ink-600')}
          >
            <HelpIcon />
            <span>Help</span>
          </button>
        </li>
      </ul>
    </nav>
  );
}
