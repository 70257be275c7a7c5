import { HelpIcon } from '../../components/ui/icons';

/**
 * Floating launcher for the help panel on wide screens, bottom right on every page (spec §2). On a phone the tab
 * bar's Help is the launcher (bottom-tab-bar.tsx, decision 0107).
 */
export function HelpLauncher({ onOpen }: { onOpen: () => void }) {
  return (
    <button
      type="button"
      onClick={onOpen}
      data-testid="help-launcher"
      className={
        'fixed right-4 bottom-6 z-30 inline-flex min-h-12 items-center gap-2 rounded-full bg-pine-700 px-5 ' +
        'font-semibold text-cream-50 shadow-lg hover:bg-pine-800'
      }
    >
      <HelpIcon />
      Help
    </button>
  );
}
