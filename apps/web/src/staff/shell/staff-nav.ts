import type { StaffRole } from '@kringle/contracts/staff-roles';

/**
 * The staff app's pages and who sees them (decision 0050): the nav shows only what the role may
 * do, as the API enforces it.
 */
export type Page =
  | 'run-sheet'
  | 'check-in'
  | 'walk-in'
  | 'photos'
  | 'support'
  | 'audit'
  | 'disputes'
  | 'vouchers'
  | 'live'
  | 'reports'
  | 'promo-codes'
  | 'closures'
  | 'season'
  | 'staff';
export const PATHS: Record<Page, string> = {
  'run-sheet': '/staff',
  'check-in': '/staff/check-in',
  'walk-in': '/staff/walk-in',
  photos: '/staff/photos',
  support: '/staff/support',
  audit: '/staff/support/audit',
  disputes: '/staff/support/disputes',
  vouchers: '/staff/support/vouchers',
  live: '/staff/live',
  reports: '/staff/reports',
  'promo-codes': '/staff/promo-codes',
  closures: '/staff/closures',
  season: '/staff/season',
  staff: '/staff/people',
};
export const LABELS: Record<Page, string> = {
  'run-sheet': 'Run sheet',
  'check-in': 'Check in',
  'walk-in': 'Walk-in',
  photos: 'Photos',
  support: 'Support',
  audit: 'Audit',
  disputes: 'Disputes',
  vouchers: 'Vouchers',
  live: 'Live',
  reports: 'Reports',
  'promo-codes': 'Promo codes',
  closures: 'Closures',
  season: 'Season',
  staff: 'Staff',
};
const ROLES: Record<Page, readonly StaffRole[]> = {
  'run-sheet': ['manager', 'set', 'support'],
  'check-in': ['manager', 'set'],
  'walk-in': ['manager', 'set'],
  photos: ['manager', 'set'],
  support: ['manager', 'support'],
  audit: ['manager'],
  disputes: ['manager', 'support'],
  vouchers: ['manager', 'support'],
  live: ['manager'],
  reports: ['manager'],
  'promo-codes': ['manager'],
  closures: ['manager'],
  staff: ['manager'],
  season: ['manager'],
};
/** The pages that work on one location, with the location picker above them. */
export const LOCATION_PAGES: readonly Page[] = ['run-sheet', 'check-in', 'walk-in', 'photos'];

export const pagesFor = (role: StaffRole) => (Object.keys(PATHS) as Page[]).filter((p) => ROLES[p].includes(role));

/** The page at `path` if the role may see it, else the role's first (support's first is its desk). */
export function pageOf(path: string, role: StaffRole): Page {
  const allowed = pagesFor(role);
  const here = (Object.entries(PATHS) as [Page, string][]).find(([, p]) => p === path.replace(/\/+$/, ''))?.[0];
  if (here && allowed.includes(here)) return here;
  return role === 'support' ? 'support' : allowed[0]!;
}

/** Where the app opens after sign-in or a reload: support opens at its desk, not the run sheet at /staff. */
export function startPage(path: string, role: StaffRole): Page {
  return role === 'support' && path.replace(/\/+$/, '') === PATHS['run-sheet'] ? 'support' : pageOf(path, role);
}
