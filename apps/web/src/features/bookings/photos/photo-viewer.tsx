import * as Dialog from '@radix-ui/react-dialog';
import type { Gallery } from '@kringle/contracts/photos';
import { Button } from '../../../components/ui/button';

type Photo = Gallery['items'][number];

export interface PhotoViewerProps {
  photos: Photo[];
  index: number;
  onIndex: (index: number) => void;
  onClose: () => void;
  /** What the photo offers: download once unlocked, choose while locked. */
  action: (photo: Photo) => React.ReactNode;
}

/**
 * One photo at a time, full screen: left and right arrow keys (and the buttons) move through the
 * gallery, Escape or Close go back to the grid (Radix Dialog traps focus and returns it).
 */
export function PhotoViewer({ photos, index, onIndex, onClose, action }: PhotoViewerProps) {
  const photo = photos[index]!;
  const step = (by: number) => onIndex((index + by + photos.length) % photos.length);
  const label = `Photo ${index + 1} of ${photos.length}`;
  return (
    <Dialog.Root open onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-ink-900/95" />
        <Dialog.Content
          className="fixed inset-0 z-50 flex flex-col gap-3 bg-ink-900 p-3 text-cream-50 sm:p-5"
          onKeyDown={(e) => {
            if (e.key === 'ArrowRight') step(1);
            else if (e.key === 'ArrowLeft') step(-1);
          }}
        >
          <div className="flex flex-wrap items-center gap-2">
            <Dialog.Title className="text-lg font-semibold">{label}</Dialog.Title>
            <Dialog.Description className="sr-only">
              Use the left and right arrow keys to move between photos.
            </Dialog.Description>
            <span className="text-sm text-cream-200">{photo.unlocked ? 'Unlocked' : 'Preview'}</span>
            <Dialog.Close asChild>
              <Button variant="secondary" className="ml-auto">
                Close
              </Button>
            </Dialog.Close>
          </div>
          <div className="flex min-h-0 flex-1 items-center justify-center">
            <img
              src={photo.previewUrl}
              alt={label}
              width={photo.width}
              height={photo.height}
              className="max-h-full max-w-full object-contain"
            />
          </div>
          <div className="flex flex-wrap items-center justify-center gap-2">
            <Button variant="secondary" onClick={() => step(-1)} disabled={photos.length < 2}>
              Previous
            </Button>
            {action(photo)}
            <Button variant="secondary" onClick={() => step(1)} disabled={photos.length < 2}>
              Next
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
