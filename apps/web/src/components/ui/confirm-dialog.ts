/**
 * The look and focus rule of a dialog that confirms something hard to undo (cancelling a
 * booking, moving it past the refund cut-off): a sheet at the bottom on phones, centred from
 * `sm` up.
 */
export const CONFIRM_DIALOG = {
  overlay: 'fixed inset-0 z-40 bg-ink-900/40',
  content:
    'fixed inset-x-3 bottom-3 z-50 mx-auto flex max-h-[calc(100dvh-1.5rem)] max-w-lg flex-col gap-4 overflow-y-auto ' +
    'rounded-2xl bg-cream-50 p-5 shadow-2xl focus:outline-none sm:inset-x-4 sm:bottom-auto sm:top-1/2 ' +
    'sm:-translate-y-1/2 sm:p-6',
  title: 'font-display text-2xl font-semibold text-ink-900',
  actions: 'flex flex-col-reverse gap-3 sm:flex-row sm:justify-end',
} as const;

/**
 * Radix `onOpenAutoFocus`: focus starts on the safe choice (`data-autofocus`), so an accidental Enter changes nothing.
 */
export function focusSafeChoice(event: Event) {
  event.preventDefault();
  (event.currentTarget as HTMLElement).querySelector<HTMLElement>('[data-autofocus]')?.focus();
}
