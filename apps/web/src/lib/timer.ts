/** Spec §4: remaining whole seconds until `endDate`, never below 0. */
export function remainingSeconds(endDate: string | number | Date, now: number): number {
  const end = typeof endDate === 'number' ? endDate : new Date(endDate).getTime();
  if (Number.isNaN(end)) return 0;
  // Rounded up so the countdown reads 0 exactly when the hold ends, not a second early.
  return Math.max(0, Math.ceil((end - now) / 1000));
}

/** 605 → "10:05". */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
