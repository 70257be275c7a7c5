/**
 * The access needs a family can tell us about (issue 18) and their words. No zod here: a page
 * that only shows them (My Bookings' cards) does not download the validation library with them.
 */
export const ACCESS_NEEDS = ['wheelchair', 'sensory', 'auslan'] as const;
export type AccessNeed = (typeof ACCESS_NEEDS)[number];
export const ACCESS_NEED_LABELS: Record<AccessNeed, string> = {
  wheelchair: 'Wheelchair access',
  sensory: 'A quieter, sensory-friendly approach',
  auslan: 'An Auslan interpreter',
};

export const accessSummary = (d: { accessNeeds: readonly AccessNeed[] }): string =>
  d.accessNeeds.map((n) => ACCESS_NEED_LABELS[n]).join(', ');
