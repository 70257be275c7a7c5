import { createAsyncThunk } from '@reduxjs/toolkit';
import { track } from '../../../lib/analytics';
import type { WizardRootState } from '../state/booking-hooks';
import { removeItem, upsertItem } from '../state/booking-slice';
import { cartLine, ecommerce, maxQuantityFor, type Catalogue, type CatalogueItem } from './cart-math';

type ThunkConfig = { state: WizardRootState };

/**
 * Sets how many of an item are in the cart (0 takes it out), within the limits, and records
 * add_to_cart or remove_from_cart for the difference (AUD, GA4 items).
 */
export const setItemQuantity = createAsyncThunk<
  void,
  { item: CatalogueItem; quantity: number; catalogue: Catalogue },
  ThunkConfig
>('booking/setItemQuantity', ({ item, quantity, catalogue }, { dispatch, getState }) => {
  const packages = getState().booking.packages;
  const current = packages[item.id];
  const before = current && !current.remove ? current.totalQuantity : 0;
  const next = Math.max(0, Math.min(quantity, maxQuantityFor(item, packages)));
  if (next === before) return;
  if (next === 0) dispatch(removeItem(item.id));
  else dispatch(upsertItem(cartLine(item, next)));
  const delta = cartLine(item, Math.abs(next - before));
  track(next > before ? 'add_to_cart' : 'remove_from_cart', ecommerce([delta], catalogue));
});

/** Takes a line out from the cart drawer, keeping it (remove: true) so it can be put back. */
export const removeFromCart = createAsyncThunk<void, { id: string; catalogue: Catalogue }, ThunkConfig>(
  'booking/removeFromCart',
  ({ id, catalogue }, { dispatch, getState }) => {
    const line = getState().booking.packages[id];
    if (!line || line.remove) return;
    dispatch(upsertItem({ ...line, remove: true }));
    track('remove_from_cart', ecommerce([line], catalogue));
  },
);

/** "Undo" after a removal from the cart drawer, if the limits still allow it. */
export const restoreToCart = createAsyncThunk<void, { id: string; catalogue: Catalogue }, ThunkConfig>(
  'booking/restoreToCart',
  ({ id, catalogue }, { dispatch, getState }) => {
    const line = getState().booking.packages[id];
    const item = catalogue.get(id);
    if (!line || !line.remove || !item) return;
    const packages = { ...getState().booking.packages, [id]: { ...line, remove: false, totalQuantity: 0 } };
    const quantity = Math.min(line.totalQuantity, maxQuantityFor(item, packages));
    if (quantity <= 0) return;
    dispatch(upsertItem(cartLine(item, quantity)));
    track('add_to_cart', ecommerce([cartLine(item, quantity)], catalogue));
  },
);
