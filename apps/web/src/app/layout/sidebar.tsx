import { clsx } from 'clsx';
import { NavLink } from 'react-router';
import { Avatar } from '../../components/ui/avatar';
import { ChevronIcon, LogoutIcon } from '../../components/ui/icons';
import { Logo } from '../../components/ui/logo';
import { LocationLabel } from './location-label';
import { NAV_ITEMS, ROLE_LABEL } from './nav-items';

export interface SidebarProps {
  brandName: string;
  displayName: string;
  initials: string;
  collapsed: boolean;
  onToggle: () => void;
  onLogout: () => void;
  onEditProfile: () => void;
  onChangePassword: () => void;
  onYourData: () => void;
}

/** Wide screens (spec §2, §9): 20rem, collapsible to 7.5rem, expanded by default. */
export function Sidebar({
  brandName,
  displayName,
  initials,
  collapsed,
  onToggle,
  onLogout,
  onEditProfile,
  onChangePassword,
  onYourData,
}: SidebarProps) {
  return (
    <aside
      data-testid="sidebar"
      data-collapsed={collapsed}
      className={clsx(
        'fixed inset-y-0 left-0 z-30 flex flex-col border-r border-cream-300 bg-cream-50 transition-[width] ' +
          'duration-200',
        collapsed ? 'w-(--width-sidebar-collapsed)' : 'w-(--width-sidebar)',
      )}
    >
      <div
        className={clsx('flex items-center gap-3 border-b border-cream-200 px-5 py-5', collapsed && 'flex-col px-2')}
      >
        <Logo brandName={brandName} className="size-11" />
        {!collapsed && (
          <div className="min-w-0 flex-1">
            <p className="truncate font-display text-xl font-semibold text-festive-700">{brandName}</p>
            <p className="text-[0.7rem] font-semibold tracking-[0.12em] whitespace-nowrap text-gold-700">
              PHOTOS WITH SANTA
            </p>
          </div>
        )}
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={!collapsed}
          aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
          className="flex size-11 items-center justify-center rounded-full text-ink-600 hover:bg-cream-200"
        >
          <ChevronIcon className={clsx('transition-transform', collapsed && 'rotate-180')} />
        </button>
      </div>

      <nav aria-label="Main" className="flex-1 px-3 py-4">
        <ul className="flex flex-col gap-1">
          {NAV_ITEMS.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                title={collapsed ? item.label : undefined}
                className={({ isActive }) =>
                  clsx(
                    'flex min-h-12 items-center gap-3 rounded-xl px-4 text-base font-medium transition-colors',
                    collapsed && 'flex-col justify-center gap-1 px-1 py-2 text-xs',
                    isActive ? 'bg-festive-50 text-festive-800' : 'text-ink-700 hover:bg-cream-200',
                  )
                }
              >
                {item.icon}
                <span className={clsx(collapsed && 'text-center leading-tight')}>{item.label}</span>
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>

      <div className={clsx('border-t border-cream-200 p-4', collapsed && 'px-2')}>
        <div className={clsx('flex items-center gap-3', collapsed && 'flex-col gap-2')}>
          <Avatar initials={initials} />
          {!collapsed && (
            <div className="min-w-0 flex-1 [overflow-wrap:anywhere]">
              {/* Long names wrap rather than being cut. */}
              <p className="font-semibold text-ink-900" data-testid="sidebar-name">
                {displayName}
              </p>
              <p className="text-sm text-ink-600">{ROLE_LABEL}</p>
              <LocationLabel className="text-sm text-ink-600" />
            </div>
          )}
        </div>
        {!collapsed && (
          <div className="mt-2 flex flex-col">
            <button
              type="button"
              onClick={onEditProfile}
              className={
                'flex min-h-11 items-center rounded-xl px-4 text-left font-medium text-ink-700 ' + 'hover:bg-cream-200'
              }
            >
              Edit name and phone
            </button>
            <button
              type="button"
              onClick={onChangePassword}
              className={
                'flex min-h-11 items-center rounded-xl px-4 text-left font-medium text-ink-700 ' + 'hover:bg-cream-200'
              }
            >
              Change password
            </button>
            <button
              type="button"
              onClick={onYourData}
              className={
                'flex min-h-11 items-center rounded-xl px-4 text-left font-medium text-ink-700 ' + 'hover:bg-cream-200'
              }
            >
              Your data
            </button>
          </div>
        )}
        <button
          type="button"
          onClick={onLogout}
          className={clsx(
            'mt-3 flex min-h-11 w-full items-center gap-2 rounded-xl px-4 font-medium text-festive-700 ' +
              'hover:bg-festive-50',
            collapsed && 'flex-col justify-center gap-0.5 px-1 text-xs',
          )}
        >
          <LogoutIcon />
          Logout
        </button>
      </div>
    </aside>
  );
}
