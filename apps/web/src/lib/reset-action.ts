import { createAction } from '@reduxjs/toolkit';

/** Returns every slice to its initial state (sign-out, refused staff login). */
export const resetStore = createAction('app/reset');
