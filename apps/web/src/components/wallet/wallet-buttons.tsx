import { clsx } from 'clsx';
import { useState } from 'react';
import { useDispatch } from 'react-redux';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { Booking } from '@kringle/contracts/bookings';
import type { ApiError } from '../../lib/api-error';
import { toastError } from '../../lib/deferred-toast';
import { WalletIcon } from '../ui/icons';
import { downloadFile } from '../../lib/download-file';
import { useLazyGoogleWalletLinkQuery } from '../../lib/wallet-api';

type Busy = 'apple' | 'google' | null;

/** A paid booking goes into the phone's wallet: the ticket with its check-in code works without signal. */
export const offersWallet = (b: Booking) => b.status === 'completed' && Boolean(b.checkInCode);

const problem = (error: unknown, fallback: string) => (error as ApiError | undefined)?.data?.error ?? fallback;

/**
 * "Add to Apple Wallet" (the signed .pkpass, downloaded with the family's token) and "Save to
 * Google Wallet" (the API signs a save link; the page goes there, as Google's own button does).
 * Dark, as the wallets' own badges are, so they read as the wallets' and not as our actions.
 */
export function WalletButtons({ booking, className }: { booking: Booking; className?: string }) {
  const dispatch = useDispatch<ThunkDispatch<unknown, unknown, UnknownAction>>();
  const [googleLink] = useLazyGoogleWalletLinkQuery();
  const [busy, setBusy] = useState<Busy>(null);

  const addToApple = async () => {
    setBusy('apple');
    const saved = await dispatch(
      downloadFile({
        url: `/bookings/${booking.id}/wallet.pkpass`,
        filename: `santa-photos-${booking.reference}.pkpass`,
        what: 'the Apple Wallet pass',
      }),
    );
    setBusy(null);
    if (downloadFile.rejected.match(saved))
      void toastError(problem(saved.payload, 'We could not download the Apple Wallet pass. Please try again.'));
  };
  const saveToGoogle = async () => {
    setBusy('google');
    const result = await googleLink(booking.id);
    if (!result.data) {
      setBusy(null);
      void toastError(problem(result.error, 'We could not open Google Wallet. Please try again.'));
      return;
    }
    window.location.assign(result.data.saveUrl);
    setBusy(null);
  };

  const button = (which: 'apple' | 'google', label: string, busyLabel: string, onClick: () => void) => (
    <button
      type="button"
      disabled={busy !== null}
      aria-busy={busy === which}
      onClick={onClick}
      className={clsx(
        'inline-flex min-h-11 flex-1 items-center justify-center gap-2 whitespace-nowrap rounded-xl px-4',
        'bg-ink-900 text-sm font-semibold text-cream-50 shadow-sm hover:bg-black sm:flex-none',
        'disabled:cursor-not-allowed disabled:opacity-60',
      )}
    >
      <WalletIcon className="size-5 shrink-0" />
      {busy === which ? busyLabel : label}
    </button>
  );

  return (
    <div className={clsx('flex flex-wrap gap-2', className)} data-testid="wallet-buttons">
      {button('apple', 'Add to Apple Wallet', 'Downloading…', () => void addToApple())}
      {button('google', 'Save to Google Wallet', 'Opening…', () => void saveToGoogle())}
    </div>
  );
}
