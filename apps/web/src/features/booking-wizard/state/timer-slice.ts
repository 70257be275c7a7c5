import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { resetStore } from '../../../lib/reset-action';
import { serverNow } from '../../../lib/server-clock';
import { remainingSeconds } from '../../../lib/timer';

/** Spec §3/§4 reservation timer: endDate, remaining seconds, isRunning. Not persisted. */
export interface TimerState {
  endDate: string | null;
  remaining: number;
  isRunning: boolean;
}

export const initialTimerState: TimerState = { endDate: null, remaining: 0, isRunning: false };

function recompute(state: TimerState, now: number) {
  state.remaining = state.endDate ? remainingSeconds(state.endDate, now) : 0;
  state.isRunning = state.remaining > 0;
  if (!state.isRunning) state.endDate = null;
}

const timerSlice = createSlice({
  name: 'timer',
  initialState: initialTimerState,
  reducers: {
    // `now` is stamped in the action creator so the reducer stays pure and testable; it is the
    // server's clock, since `endDate` is the server's `expiresAt`.
    setEndDate: {
      reducer(state, action: PayloadAction<{ endDate: string; now: number }>) {
        state.endDate = action.payload.endDate;
        recompute(state, action.payload.now);
      },
      prepare: (endDate: string, now: number = serverNow()) => ({ payload: { endDate, now } }),
    },
    tick: {
      reducer(state, action: PayloadAction<{ now: number }>) {
        recompute(state, action.payload.now);
      },
      prepare: (now: number = serverNow()) => ({ payload: { now } }),
    },
    stopTimer() {
      return initialTimerState;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(resetStore, () => initialTimerState);
  },
});

export const { setEndDate, tick, stopTimer } = timerSlice.actions;
export const timerReducer = timerSlice.reducer;
