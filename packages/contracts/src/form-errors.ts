/** Spec §5: a form's errors object is valid only when every error string is empty. */
export function isFormValid(errors: Record<string, string | null | undefined>): boolean {
  return Object.values(errors).every((message) => !message);
}
