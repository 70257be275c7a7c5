import { clsx } from 'clsx';
import { lazy, Suspense, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { initials, nameParts } from '@kringle/contracts/names';
import { Logo } from '../components/ui/logo';
import { useOpenedOnce } from '../components/ui/use-opened-once';
import { signOut } from '../features/auth/session';
import { HelpLauncher } from '../features/help/help-launcher';
import { BottomTabBar } from './layout/bottom-tab-bar';
import { LocationLabel } from './layout/location-label';
import type { ProfileDialogMode } from './layout/profile-dialog';
import { Sidebar } from './layout/sidebar';
import { useIsMobile } from './layout/use-is-mobile';
import { track } from '../lib/analytics';
import { BRAND_NAME } from '../lib/env';
import { useAppDispatch, useAppSelector } from './hooks';

// Loaded when a family opens it: the forms and their rules stay out of every page's first load.
const ProfileDialog = lazy(() => import('./layout/profile-dialog'));
// Radix Dialog loads with the first dialog a family opens, not with every signed-in page (decision 0036).
const HelpPanel = lazy(() => import('../features/help/help-panel').then((m) => ({ default: m.HelpPanel })));

/** The signed-in frame: sidebar on wide screens, bottom tab bar at 800 px or less (spec §2). */
export function AppLayout() {
  const dispatch = useAppDispatch();
  const user = useAppSelector((state) => state.auth.user);
  const { pathname } = useLocation();
  const mobile = useIsMobile();
  const [collapsed, setCollapsed] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const helpOpened = useOpenedOnce(helpOpen);
  const [profileDialog, setProfileDialog] = useState<ProfileDialogMode | null>(null);

  const { fullname } = nameParts(user?.firstName, user?.lastName);
  const displayName = fullname || user?.displayName || user?.email || '';
  const userInitials = initials(fullname || user?.displayName || '', user?.email);
  // The help launcher is hidden on narrow screens except in the booking wizard (spec §2); there it is the tab bar's
  // Help, where Help is on every other page (WCAG 3.2.6), and a phone shows one Help button, not two (decision 0107).
  const wizard = pathname === '/create-booking';

  const logout = () => {
    track('logout');
    void dispatch(signOut());
  };

  return (
    <div className="flex min-h-dvh flex-col bg-cream-100">
      <a
        href="#main"
        className={
          'sr-only z-50 rounded-lg bg-festive-700 px-4 py-3 text-cream-50 focus:not-sr-only focus:fixed ' +
          'focus:left-4 focus:top-4'
        }
      >
        Skip to content
      </a>
      {mobile && (
        <header
          className={
            'sticky top-0 z-20 flex items-center gap-2 border-b border-cream-300 bg-cream-50/95 px-4 ' +
            'py-2 backdrop-blur'
          }
        >
          <Logo brandName={BRAND_NAME} decorative className="size-9" />
          <span className="font-display text-lg font-semibold text-festive-700">{BRAND_NAME}</span>
        </header>
      )}
      {mobile ? (
        <BottomTabBar
          displayName={displayName}
          initials={userInitials}
          locationLabel={<LocationLabel className="text-sm text-ink-600" />}
          onLogout={logout}
          onHelp={() => setHelpOpen(true)}
          helpIsLauncher={wizard}
          onEditProfile={() => setProfileDialog('profile')}
          onChangePassword={() => setProfileDialog('password')}
          onYourData={() => setProfileDialog('data')}
        />
      ) : (
        <Sidebar
          brandName={BRAND_NAME}
          displayName={displayName}
          initials={userInitials}
          collapsed={collapsed}
          onToggle={() => {
            track('sidebar', { collapsed: !collapsed });
            setCollapsed(!collapsed);
          }}
          onLogout={logout}
          onEditProfile={() => setProfileDialog('profile')}
          onChangePassword={() => setProfileDialog('password')}
          onYourData={() => setProfileDialog('data')}
        />
      )}
      {/* Wide: room under a page's last row (a step's Continue, at the right) for the floating Help button, so it
         scrolls clear. */}
      {/* data-toast-space: on a phone, room above the page while a toast shows (deferred-toaster.tsx). */}
      <main
        id="main"
        tabIndex={-1}
        data-toast-space
        className={clsx(
          'flex-1 transition-[padding] duration-200 focus:outline-none',
          mobile
            ? 'pt-[var(--toast-space,0px)] pb-24'
            : ['pb-20', collapsed ? 'pl-(--width-sidebar-collapsed)' : 'pl-(--width-sidebar)'],
        )}
      >
        <Outlet />
      </main>
      {!mobile && <HelpLauncher onOpen={() => setHelpOpen(true)} />}
      {helpOpened && (
        <Suspense fallback={null}>
          <HelpPanel open={helpOpen} onOpenChange={setHelpOpen} />
        </Suspense>
      )}
      {profileDialog && (
        <Suspense fallback={null}>
          <ProfileDialog mode={profileDialog} onClose={() => setProfileDialog(null)} />
        </Suspense>
      )}
    </div>
  );
}
