import { EMPTY_DETAILS } from '@kringle/contracts/booking-details';
import type { SupportBooking } from '@kringle/contracts/support';
import { useState } from 'react';
import { NO_CHILD, WhosComingFields, type DetailsInput } from '../walk-in/whos-coming-fields';
import { ActionForm } from './support-actions';
import { editDetails } from './support-api';

/**
 * Who is coming, changed for the family (the walk-in form's fields). The API checks the family's
 * own rules; its message is shown under the form.
 */
export function DetailsForm({ booking, onDone }: { booking: SupportBooking; onDone: (message: string) => void }) {
  const [details, setDetails] = useState<DetailsInput>(
    () => booking.details ?? { ...EMPTY_DETAILS, children: [NO_CHILD] },
  );
  const run = async (reason: string) => {
    // A row left empty is no child; one with a name but no age is sent as is and refused with its message.
    const children = details.children
      .filter((c) => c.firstName.trim() || c.age !== null)
      .map((c) => ({ firstName: c.firstName, age: c.age ?? -1 }));
    await editDetails(
      booking.id,
      { ...details, pets: booking.slotType.allowsPets ? details.pets : 0, children },
      reason,
    );
    return "Who's coming is changed.";
  };
  return (
    <ActionForm title="Change who is coming" submit="Save who is coming" run={run} onDone={onDone}>
      <WhosComingFields details={details} onChange={setDetails} allowsPets={booking.slotType.allowsPets} errors={{}} />
    </ActionForm>
  );
}
