export interface NameParts {
  firstname: string;
  lastname: string;
  fullname: string;
}

const upperFirst = (part: string) => part.charAt(0).toLocaleUpperCase('en-AU') + part.slice(1);

/**
 * Capitalises the first letter of each word, and of each part after a hyphen or an apostrophe
 * ("o'brien" → "O'Brien"), and keeps the rest as typed: lower-casing the rest turned
 * "McBerry-Smith" into "Mcberry-smith". Only whitespace is normalised.
 */
export function capitaliseWords(value: string): string {
  return value
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.split(/(?<=[-'’])/).map(upperFirst).join(''))
    .join(' ');
}

/** Spec §3 name helper: first, last and full name with capitalised words. */
export function nameParts(firstName: string | null | undefined, lastName: string | null | undefined): NameParts {
  const firstname = capitaliseWords(firstName ?? '');
  const lastname = capitaliseWords(lastName ?? '');
  return { firstname, lastname, fullname: [firstname, lastname].filter(Boolean).join(' ') };
}

/** "Hi Holly," for e-mails, or "Hi," without a first name. */
export function greeting(firstName: string | null | undefined): string {
  const { firstname } = nameParts(firstName, '');
  return firstname ? `Hi ${firstname},` : 'Hi,';
}

/** Up to two initials for an avatar; falls back to the e-mail's first letter. */
export function initials(fullname: string, email?: string): string {
  const letters = fullname
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toLocaleUpperCase('en-AU'));
  if (letters.length === 0) return (email?.charAt(0) ?? '?').toLocaleUpperCase('en-AU');
  return (letters[0]! + (letters.length > 1 ? letters[letters.length - 1]! : '')).slice(0, 2);
}
