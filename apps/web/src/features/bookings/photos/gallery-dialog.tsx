import * as Dialog from '@radix-ui/react-dialog';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { clsx } from 'clsx';
import { useState } from 'react';
import { useDispatch } from 'react-redux';
import type { Booking } from '@kringle/contracts/bookings';
import type { Gallery } from '@kringle/contracts/photos';
import { Button } from '../../../components/ui/button';
import type { ApiError } from '../../../lib/api-error';
import { toastError } from '../../../lib/deferred-toast';
import { downloadFile } from '../../../lib/download-file';
import { formatAud } from '@kringle/contracts/money';
import { useBookingOrdersQuery } from '../api';
import { allowanceHint, allowanceWords, photosBought, UnlockConfirm } from './allowance';
import { useBookingPhotosQuery, useUnlockPhotosMutation } from './api';
import { BuyPhotos } from './buy-photos';
import { PhotoPurchases } from './photo-purchases';
import { PhotoViewer } from './photo-viewer';

type Photo = Gallery['items'][number];

const expiryWords = (expiresAt: string, timeZone: string) => {
  const date = new Intl.DateTimeFormat('en-AU', {
    weekday: 'short',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone,
  });
  return `Kept until ${date.format(new Date(expiresAt))}, then deleted. Download the ones you want to keep.`;
};

/**
 * The family's gallery of one booking (issue 39): watermarked previews, the allowance, choosing
 * and unlocking, and downloading originals one by one or all in a zip. Its own chunk, loaded
 * when the family opens it (photos-button.tsx).
 */
export default function GalleryDialog({ booking, onClose }: { booking: Booking; onClose: () => void }) {
  const gallery = useBookingPhotosQuery(booking.id);
  const [unlock, unlocking] = useUnlockPhotosMutation();
  const dispatch = useDispatch<ThunkDispatch<unknown, unknown, UnknownAction>>();
  const [chosen, setChosen] = useState<string[]>([]);
  const [viewing, setViewing] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [downloading, setDownloading] = useState<string | null>(null);
  const [buying, setBuying] = useState<string[]>([]);
  const [paying, setPaying] = useState(false);
  const [bought, setBought] = useState<{ count: number; orderId: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  // The booking card's orders query (cached): how many of `included` were bought rather than in the package.
  const boughtCount = photosBought(useBookingOrdersQuery(booking.id).data ?? []);
  const g = gallery.data;
  const left = g && g.included !== 'all' ? Math.max(0, g.included - g.unlocked) : Infinity;
  // The allowance used: locked photos can be bought by card (decision 0065).
  const price = left === 0 ? (g?.extraPhotoPriceCents ?? null) : null;
  const locked = g?.items.filter((p) => !p.unlocked).length ?? 0;

  const toggle = (photo: Photo) => {
    setProblem(null);
    setConfirming(false);
    if (chosen.includes(photo.id)) setChosen(chosen.filter((id) => id !== photo.id));
    else if (chosen.length < left) setChosen([...chosen, photo.id]);
    else
      setProblem(
        left === 0
          ? 'You have chosen all the photos your package includes.'
          : `Your package has ${left} more photo${left === 1 ? '' : 's'} to choose.`,
      );
  };
  const submit = async () => {
    setProblem(null);
    setConfirming(false);
    const result = await unlock({ bookingId: booking.id, photoIds: chosen });
    if (result.error) {
      const error = (result.error as ApiError).data;
      setProblem(error?.error ?? 'We could not unlock those photos. Please try again.');
      // Another device may have used the allowance: show what is unlocked now, and choose again.
      if (error?.code === 'PHOTO_ALLOWANCE_USED') {
        setChosen([]);
        void gallery.refetch();
      }
      return;
    }
    setChosen([]);
  };
  const download = async (key: string, url: string, filename: string, what: string) => {
    setDownloading(key);
    try {
      await dispatch(downloadFile({ url, filename, what })).unwrap();
    } catch (e) {
      // 429s are toasted by the base query already.
      if ((e as ApiError).status !== 429)
        void toastError((e as ApiError).data?.error ?? `We could not download ${what}.`);
    } finally {
      setDownloading(null);
    }
  };
  const original = (photo: Photo, index: number) => (
    <Button
      variant="confirm"
      className="px-3! text-sm!"
      disabled={downloading !== null}
      aria-busy={downloading === photo.id}
      aria-label={`Download photo ${index + 1}`}
      onClick={() =>
        void download(
          photo.id,
          `/bookings/${booking.id}/photos/${photo.id}/original`,
          `${booking.reference}-${index + 1}.jpg`,
          'the photo',
        )
      }
    >
      {downloading === photo.id ? 'Downloading…' : 'Download'}
    </Button>
  );
  // Once the allowance is used, locked photos stay previews: nothing left to choose them with.
  const canChoose = (photo: Photo) => left > 0 || chosen.includes(photo.id);
  const choose = (photo: Photo, index: number) => (
    <Button
      variant={chosen.includes(photo.id) ? 'primary' : 'secondary'}
      className="px-3! text-sm!"
      aria-pressed={chosen.includes(photo.id)}
      onClick={() => toggle(photo)}
    >
      {chosen.includes(photo.id) ? `Chosen: photo ${index + 1}` : `Choose photo ${index + 1}`}
    </Button>
  );

  const toggleBuy = (photo: Photo) => {
    setBought(null);
    setProblem(null);
    setBuying(buying.includes(photo.id) ? buying.filter((id) => id !== photo.id) : [...buying, photo.id]);
  };
  const buy = (photo: Photo, index: number) => (
    <Button
      variant={buying.includes(photo.id) ? 'primary' : 'secondary'}
      className="px-3! text-sm!"
      aria-pressed={buying.includes(photo.id)}
      disabled={paying}
      onClick={() => toggleBuy(photo)}
    >
      {buying.includes(photo.id) ? `Buying photo ${index + 1}` : `Buy photo ${index + 1}`}
    </Button>
  );
  const lockedAction = (photo: Photo, index: number) =>
    canChoose(photo) ? choose(photo, index) : price !== null ? buy(photo, index) : null;

  return (
    <Dialog.Root open onOpenChange={(next) => !next && viewing === null && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-ink-900/40" />
        <Dialog.Content
          className={
            'fixed inset-0 z-40 flex flex-col overflow-y-auto bg-cream-50 sm:inset-6 ' + 'sm:rounded-2xl sm:shadow-xl'
          }
        >
          <div
            className={
              'sticky top-0 z-10 flex flex-wrap items-start gap-x-4 gap-y-2 border-b border-cream-200 ' +
              'bg-cream-50 p-4 sm:px-6'
            }
          >
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <Dialog.Title className="text-xl font-semibold text-ink-900">Your photos</Dialog.Title>
              <Dialog.Description className="text-sm text-ink-700">
                {booking.slotType.name} at {booking.location.name}, reference{' '}
                <span className="font-mono">{booking.reference}</span>. Only your family can see them.
              </Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <Button variant="secondary">Close</Button>
            </Dialog.Close>
          </div>
          <div className="flex flex-col gap-4 p-4 sm:px-6">
            {gallery.isLoading ? (
              <p role="status" className="text-ink-700">
                Loading your photos…
              </p>
            ) : !g ? (
              <div role="alert" className="flex flex-col items-start gap-3">
                <p className="text-ink-900">
                  {(gallery.error as ApiError | undefined)?.data?.error ?? 'We could not load your photos just now.'}
                </p>
                <Button variant="secondary" onClick={() => void gallery.refetch()}>
                  Try again
                </Button>
              </div>
            ) : g.items.length === 0 ? (
              <p className="rounded-xl bg-cream-100 p-4 text-ink-900">
                No photos yet. Santa's team uploads them after your visit, and we e-mail you when they are ready.
              </p>
            ) : (
              <>
                <div className="flex flex-col gap-1 rounded-xl bg-cream-100 p-3">
                  <p className="text-lg font-semibold text-ink-900" data-testid="photo-allowance">
                    {allowanceWords(g, boughtCount)}
                  </p>
                  {allowanceHint(g, boughtCount) && (
                    <p className="text-sm text-ink-700">{allowanceHint(g, boughtCount)}</p>
                  )}
                  {price !== null && locked > 0 && (
                    <p className="text-sm text-ink-700">
                      Want more? Buy any other photo for {formatAud(price)} each: pick them below.
                    </p>
                  )}
                  {g.expiresAt && (
                    <p className="text-sm text-ink-700">{expiryWords(g.expiresAt, booking.location.timezone)}</p>
                  )}
                </div>
                {problem && (
                  <p role="alert" className="rounded-xl bg-festive-50 p-3 font-semibold text-festive-800">
                    {problem}
                  </p>
                )}
                {confirming && chosen.length > 0 && (
                  <UnlockConfirm
                    numbers={g.items.flatMap((p, i) => (chosen.includes(p.id) ? [i + 1] : []))}
                    leftAfter={Math.max(0, left - chosen.length)}
                    busy={unlocking.isLoading}
                    onConfirm={() => void submit()}
                    onCancel={() => setConfirming(false)}
                  />
                )}
                <div className="flex flex-wrap gap-2">
                  {chosen.length > 0 && !confirming && (
                    <Button
                      onClick={() => setConfirming(true)}
                    >{`Unlock ${chosen.length} photo${chosen.length === 1 ? '' : 's'}`}</Button>
                  )}
                  {g.unlocked > 0 && (
                    <Button
                      variant="secondary"
                      disabled={downloading !== null}
                      aria-busy={downloading === 'zip'}
                      onClick={() =>
                        void download(
                          'zip',
                          `/bookings/${booking.id}/photos.zip`,
                          `photos-${booking.reference}.zip`,
                          'your photos',
                        )
                      }
                    >
                      {downloading === 'zip' ? 'Preparing the zip…' : `Download all unlocked (${g.unlocked})`}
                    </Button>
                  )}
                </div>
                {bought && buying.length === 0 && (
                  <p role="status" className="rounded-xl bg-pine-50 p-3 font-semibold text-pine-800">
                    Thank you: {bought.count === 1 ? 'your photo is' : `your ${bought.count} photos are`} unlocked. Its
                    tax invoice is just below.
                  </p>
                )}
                {buying.length > 0 && g.extraPhotoPriceCents !== null && (
                  <BuyPhotos
                    key={buying.join()}
                    bookingId={booking.id}
                    gallery={g}
                    photoIds={buying}
                    onPaying={setPaying}
                    refetch={() => void gallery.refetch()}
                    onDone={(orderId) => {
                      setBought({ count: buying.length, orderId });
                      setBuying([]);
                      setPaying(false);
                    }}
                  />
                )}
                <PhotoPurchases
                  booking={booking}
                  justBought={bought?.orderId ?? null}
                  downloading={downloading}
                  onDownload={(...a) => void download(...a)}
                />
                <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-label="Photos">
                  {g.items.map((photo, index) => (
                    <li
                      key={photo.id}
                      className={clsx(
                        'flex flex-col gap-2 rounded-xl border bg-cream-50 p-2',
                        chosen.includes(photo.id) ? 'border-festive-700 ring-2 ring-festive-700' : 'border-cream-300',
                      )}
                    >
                      <button
                        type="button"
                        className="overflow-hidden rounded-lg"
                        aria-label={`View photo ${index + 1}`}
                        onClick={() => setViewing(index)}
                      >
                        <img
                          src={photo.previewUrl}
                          alt=""
                          width={photo.width}
                          height={photo.height}
                          loading="lazy"
                          className="aspect-[3/2] w-full object-cover"
                        />
                      </button>
                      {photo.unlocked ? (
                        <>
                          <span className="text-sm font-semibold text-pine-800">Unlocked</span>
                          {original(photo, index)}
                        </>
                      ) : (
                        lockedAction(photo, index)
                      )}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </div>
          {g && viewing !== null && g.items[viewing] && (
            <PhotoViewer
              photos={g.items}
              index={viewing}
              onIndex={setViewing}
              onClose={() => setViewing(null)}
              action={(photo) => {
                const index = g.items.indexOf(photo);
                return photo.unlocked ? original(photo, index) : lockedAction(photo, index);
              }}
            />
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
