import { HelpIcon } from '../../components/ui/icons';

/** Floating launcher for the help panel; the layout decides where it shows (spec §2). */
export function HelpLauncher({ onOpen, raised }: { onOpen: () => void; raised?: boolean }) {
  return (
    <button
      type="button"
      onClick={onOpen}
      data-testid="help-launcher"
      className={`fixed right-4 z-30 inline-flex min-h-12 items-center gap-2 rounded-full bg-pine-700 px-5 font-semibold text-cream-50 shadow-lg hover:bg-pine-800 ${raised ? 'bottom-24' : 'bottom-6'}`}
    >
      <HelpIcon />
      Help
    </button>
  );
}
