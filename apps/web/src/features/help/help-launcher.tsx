import { HelpIcon } from '../../components/ui/icons';

/**
 * Floating launcher for the help panel; the layout decides where it shows (spec §2). `docked`: on a
 * phone (only /create-booking shows it there) it sits in the sticky header's empty right end, so it
 * covers no step content, no action bar and no tab bar (issue 17; e2e checks the boxes).
 */
export function HelpLauncher({ onOpen, docked }: { onOpen: () => void; docked?: boolean }) {
  return (
    <button
      type="button"
      onClick={onOpen}
      data-testid="help-launcher"
      className={
        `fixed right-4 z-30 inline-flex items-center gap-2 rounded-full bg-pine-700 font-semibold ` +
        `text-cream-50 hover:bg-pine-800 ${docked ? 'top-1 min-h-11 px-4' : 'bottom-6 min-h-12 px-5 shadow-lg'}`
      }
    >
      <HelpIcon />
      Help
    </button>
  );
}
