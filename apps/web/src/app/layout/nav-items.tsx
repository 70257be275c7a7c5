import type { ReactNode } from 'react';
import { CalendarIcon, GiftIcon, VoucherIcon } from '../../components/ui/icons';

export interface NavItem {
  to: string;
  label: string;
  icon: ReactNode;
}

/** Spec §2: the sidebar and the bottom tab bar share these items; issue 52 adds gift vouchers (/gift). */
export const NAV_ITEMS: NavItem[] = [
  { to: '/bookings', label: 'My Bookings', icon: <CalendarIcon /> },
  { to: '/packages', label: 'View Packages', icon: <GiftIcon /> },
  { to: '/gift', label: 'Give a Santa visit', icon: <VoucherIcon /> },
];

export const ROLE_LABEL = 'Customer';
