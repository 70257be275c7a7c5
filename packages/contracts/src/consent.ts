/* Apart from access-needs.ts: My Bookings' cards import that one and need none of this. */
/**
 * Access needs and their note are likely health information (APP 3.3): kept only with the
 * parent's consent, asked beside them in these words. A change of words gets a new version, so the
 * consent recorded says which words were agreed to.
 */
export const ACCESS_CONSENT = {
  version: '2026-11-26',
  text:
    'I agree that these access needs may be kept to prepare our visit. Only the team at the set sees them, and ' +
    'they are deleted after the session.',
} as const;

/** Whether these details carry something that needs the consent above. */
export const needsConsent = (d: { accessNeeds: readonly string[]; accessNote?: string }): boolean =>
  d.accessNeeds.length > 0 || (d.accessNote ?? '').trim() !== '';
