import { createAsyncThunk } from '@reduxjs/toolkit';
import type { Location, Package } from '@kringle/contracts/catalogue';
import type { QueueWants } from '@kringle/contracts/queue';
import { toReservationData, type Reservation } from '@kringle/contracts/reservations';
import type { WizardRootState } from '../state/booking-hooks';
import {
  removeItem,
  setCheckoutData,
  setLocation,
  setReservationData,
  toggleSlotType,
  upsertItem,
} from '../state/booking-slice';
import { setEndDate } from '../state/timer-slice';
import { goToStep } from '../state/booking-slice';
import { stepIndex, type WizardStepKey } from '../state/wizard-steps';
import { cartLine, type Catalogue } from '../checkout/cart-math';
import { placeOrder } from '../checkout/checkout-actions';

/**
 * The family's turn came with a session held for what it chose in the waiting room (issue 55,
 * decision 0116): the wizard takes that hold and the chosen packages. With who's coming and the
 * policy given in the waiting room, the order is placed and the wizard opens on Payment; otherwise
 * (chosen on another device, or the order refused) on the step still to do. Returns that step.
 */
export const takeQueueHold = createAsyncThunk<
  WizardStepKey,
  { location: Location; reservation: Reservation; wants: QueueWants; packages: Package[] },
  { state: WizardRootState }
>('booking/takeQueueHold', async ({ location, reservation, wants, packages }, { dispatch, getState }) => {
  dispatch(setLocation(location));
  const type = location.slotTypes.find((t) => t.id === wants.slotTypeId);
  if (type && getState().booking.slotType[0]?.id !== type.id) dispatch(toggleSlotType(type));
  for (const id of Object.keys(getState().booking.packages)) dispatch(removeItem(id));
  const catalogue: Catalogue = new Map(packages.map((p) => [p.id, p]));
  for (const line of wants.packages) {
    const item = catalogue.get(line.id);
    if (item) dispatch(upsertItem(cartLine(item, line.quantity)));
  }
  dispatch(setCheckoutData(null));
  dispatch(setReservationData(toReservationData(reservation)));
  dispatch(setEndDate(reservation.expiresAt));
  const { details, queueChoicesFor } = getState().booking;
  if (!details || queueChoicesFor !== location.id) {
    dispatch(goToStep(stepIndex('terms')));
    return 'terms';
  }
  dispatch(goToStep(stepIndex('overview')));
  const placed = await dispatch(placeOrder({ catalogue, details }));
  return placeOrder.fulfilled.match(placed) ? 'payment' : 'overview';
});
