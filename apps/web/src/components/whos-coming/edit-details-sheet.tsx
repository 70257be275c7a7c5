import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { needsConsent } from '@kringle/contracts/consent';
import { EMPTY_DETAILS, type BookingDetails } from '@kringle/contracts/booking-details';
import type { Booking } from '@kringle/contracts/bookings';
import { Button } from '../ui/button';
import type { ApiError } from '../../lib/api-error';
import { toastError, toastSuccess } from '../../lib/deferred-toast';
import { useSaveBookingDetailsMutation } from './api';
import { DetailsForm, fitDetails } from './details-form';

/**
 * The who's-coming form of one booking: a sheet on a phone, a dialog on a wider screen. Its own
 * chunk (with react-hook-form and the details schema), loaded when the family opens it
 * (edit-details-dialog.tsx); focus goes back to the card's button when it closes.
 */
export default function EditDetailsSheet({ booking, onClose }: { booking: Booking; onClose: () => void }) {
  const [save, { isLoading }] = useSaveBookingDetailsMutation();
  const [serverErrors, setServerErrors] = useState<{ path: string; message: string }[]>();
  const formId = `details-${booking.id}`;

  const onValid = async (details: BookingDetails) => {
    const result = await save({ id: booking.id, details });
    if (result.error) {
      const error = (result.error as ApiError).data;
      if (error?.details?.length) setServerErrors(error.details);
      else void toastError(error?.error ?? 'We could not save who is coming. Please try again.');
      return;
    }
    void toastSuccess("Who's coming is saved.");
    onClose();
  };

  return (
    <Dialog.Root open onOpenChange={(next) => !next && !isLoading && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-ink-900/40" />
        <Dialog.Content
          className={
            'fixed inset-x-0 bottom-0 z-50 flex max-h-[92dvh] flex-col gap-4 overflow-y-auto ' +
            'rounded-t-2xl bg-cream-50 p-5 shadow-xl sm:inset-auto sm:top-1/2 sm:left-1/2 sm:w-[34rem] ' +
            'sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-2xl'
          }
        >
          <Dialog.Title className="text-xl font-semibold text-ink-900">Who's coming</Dialog.Title>
          <Dialog.Description className="text-sm text-ink-700">
            {booking.slotType.name} at {booking.location.name}, reference{' '}
            <span className="font-mono">{booking.reference}</span>. Only you and Santa's team see this.
          </Dialog.Description>
          <DetailsForm
            id={formId}
            defaultValues={fitDetails(
              {
                ...(booking.details ?? EMPTY_DETAILS),
                consent: booking.details ? needsConsent(booking.details) : false,
              },
              booking.slotType.allowsPets,
            )}
            allowsPets={booking.slotType.allowsPets}
            onValid={onValid}
            serverErrors={serverErrors}
          />
          {/* Save stays in reach while the form scrolls on a phone. */}
          <div
            className={
              'sticky -bottom-5 -mx-5 flex flex-wrap justify-end gap-2 border-t border-cream-200 ' +
              'bg-cream-50 px-5 py-3'
            }
          >
            <Dialog.Close asChild>
              <Button variant="ghost" disabled={isLoading}>
                Cancel
              </Button>
            </Dialog.Close>
            <Button type="submit" form={formId} disabled={isLoading} aria-busy={isLoading}>
              {isLoading ? 'Saving…' : 'Save'}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
