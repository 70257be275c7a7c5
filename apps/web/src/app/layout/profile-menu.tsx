import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { clsx } from 'clsx';
import { useRef, type FocusEvent, type ReactNode } from 'react';
import { Avatar } from '../../components/ui/avatar';
import { LogoutIcon, UserIcon } from '../../components/ui/icons';

export interface ProfileMenuProps {
  displayName: string;
  initials: string;
  /** The location label, rendered only while the menu is open. */
  locationLabel: ReactNode;
  /** The tab's look, shared with the placeholder trigger the tab bar shows until this loads. */
  triggerClass: string;
  /** Opened from the keyboard: focus the first item, as Radix does when it sees the key itself. */
  focusFirstItem: boolean;
  onLogout: () => void;
  onEditProfile: () => void;
  onChangePassword: () => void;
  /** Download my data and delete my account (issue 53 item 15). */
  onYourData: () => void;
}

const menuItemClass = 'flex min-h-11 cursor-pointer items-center gap-2 rounded-xl px-3 font-medium outline-none';

/**
 * The tab bar's Profile menu (Radix DropdownMenu and its positioning), loaded on the first tap
 * of Profile and mounted open: it then serves every later opening itself.
 */
export default function ProfileMenu({
  displayName,
  initials,
  locationLabel,
  triggerClass,
  focusFirstItem,
  onLogout,
  onEditProfile,
  onChangePassword,
  onYourData,
}: ProfileMenuProps) {
  const firstItem = useRef<HTMLDivElement>(null);
  // The menu focuses its content as it mounts (it saw no key): move on to the first item, once.
  const pendingFirstItem = useRef(focusFirstItem);
  const onContentFocus = (event: FocusEvent<HTMLDivElement>) => {
    if (!pendingFirstItem.current || event.target !== event.currentTarget) return;
    pendingFirstItem.current = false;
    firstItem.current?.focus();
  };
  return (
    <DropdownMenu.Root defaultOpen>
      <DropdownMenu.Trigger className={triggerClass}>
        <UserIcon />
        <span>Profile</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          side="top"
          align="end"
          sideOffset={8}
          collisionPadding={12}
          onFocus={onContentFocus}
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
          <DropdownMenu.Item
            ref={firstItem}
            onSelect={onEditProfile}
            className={clsx(menuItemClass, 'text-ink-900 data-highlighted:bg-cream-200')}
          >
            <UserIcon />
            Edit name and phone
          </DropdownMenu.Item>
          <DropdownMenu.Item
            onSelect={onChangePassword}
            className={clsx(menuItemClass, 'text-ink-900 data-highlighted:bg-cream-200')}
          >
            <UserIcon />
            Change password
          </DropdownMenu.Item>
          <DropdownMenu.Item
            onSelect={onYourData}
            className={clsx(menuItemClass, 'text-ink-900 data-highlighted:bg-cream-200')}
          >
            <UserIcon />
            Your data
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="my-1 h-px bg-cream-200" />
          <DropdownMenu.Item
            onSelect={onLogout}
            className={clsx(menuItemClass, 'text-festive-700 data-highlighted:bg-festive-50')}
          >
            <LogoutIcon />
            Logout
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
