export interface NameParts {
  firstname: string;
  lastname: string;
  fullname: string;
}

/**
 * Characters a person's name never needs, that reorder or hide what the run sheet, its CSV and the
 * e-mails show (issue 48 item 10): controls, format characters (bidi marks, embeddings, overrides
 * and isolates, zero-width space, word joiner, BOM, soft hyphen), line and paragraph separators,
 * the invisible Hangul fillers and a lone half of a surrogate pair. The zero-width joiner and
 * non-joiner are written inside words of some scripts (Persian, Indic), so they pass between two
 * letters only, as IDNA's CONTEXTJ rule allows them.
 */
const HIDDEN_IN_NAME =
  /[\p{Cc}\p{Zl}\p{Zp}\u17b4\u17b5\u3164\uffa0]|\u034f|\u115f|\u1160|(?![\u200c\u200d])\p{Cf}|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
const JOINER_BETWEEN_LETTERS = /(?<=[\p{L}\p{M}])[\u200c\u200d](?=[\p{L}\p{M}])/gu;

/** The message every name field answers with when it holds a hidden character. */
export const HIDDEN_CHARACTERS_MESSAGE = 'Remove the hidden or control characters.';

/** True when a name holds a character that could hide or reorder text (see HIDDEN_IN_NAME). */
export function hasHiddenCharacters(value: string): boolean {
  return HIDDEN_IN_NAME.test(value) || /[\u200c\u200d]/.test(value.replace(JOINER_BETWEEN_LETTERS, ''));
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
    .map((word) =>
      word
        .split(/(?<=[-'’])/)
        .map(upperFirst)
        .join(''),
    )
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
