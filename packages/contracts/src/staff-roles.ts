// Placeholder, replaced by people-roles (issue 34): the staff roles, listed once for the API and the staff app.
export const STAFF_ROLES = ['manager', 'support', 'set'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
