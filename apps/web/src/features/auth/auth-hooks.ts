import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import type { AuthState } from './auth-slice';
import type { AuthExtra } from './session';

/**
 * Typed hooks for the auth feature's own slice and thunks. Kept here rather than importing
 * app/hooks so the feature does not depend on the app that composes it.
 */
export const useAuthDispatch = useDispatch.withTypes<ThunkDispatch<{ auth: AuthState }, AuthExtra, UnknownAction>>();
export const useAuthSelector = useSelector.withTypes<{ auth: AuthState }>();
