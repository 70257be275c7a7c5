/** Build-time configuration (Vite env), with the defaults DESIGN.md gives. */
export const BRAND_NAME: string = import.meta.env.VITE_BRAND_NAME || 'Kringle';
export const GA_MEASUREMENT_ID: string | undefined = import.meta.env.VITE_GA_MEASUREMENT_ID || undefined;
/** Same origin by default: the API serves the built app. */
export const API_BASE_URL: string = import.meta.env.VITE_API_BASE_URL || '/api/v1';

/** Spec §9 constants the shell uses. */
export const MOBILE_BREAKPOINT_PX = 800;
export const RESIZE_THROTTLE_MS = 2000;
export const TOAST_DURATION_MS = 5000;
export const TOAST_OFFSET_PX = 50;
export const PERSIST_TIMEOUT_MS = 5000;
export const CACHE_KEEP_SECONDS = 60;

export function pageTitle(label: string): string {
  return `${label} | ${BRAND_NAME}`;
}
