import type { Store, ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch, useSelector, useStore } from 'react-redux';
import type { BookingState } from './booking-slice';
import type { TimerState } from './timer-slice';

/** The slice of the store this feature reads; the app's root state is a superset of it. */
export interface WizardRootState {
  booking: BookingState;
  timer: TimerState;
}

export const useWizardDispatch = useDispatch.withTypes<ThunkDispatch<WizardRootState, unknown, UnknownAction>>();
export const useWizardSelector = useSelector.withTypes<WizardRootState>();
/** For a value needed once, at an event (not rendered): the countdown, without re-rendering every second. */
export const useWizardStore = useStore.withTypes<Store<WizardRootState>>();
