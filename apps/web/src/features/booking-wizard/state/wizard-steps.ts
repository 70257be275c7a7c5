/** Spec §2: the booking wizard's seven steps, in order, with their labels. */
export const WIZARD_STEPS = [
  { key: 'location', label: 'Location' },
  { key: 'bookingType', label: 'Type' },
  { key: 'sessionTime', label: 'Session' },
  { key: 'package', label: 'Package' },
  { key: 'terms', label: 'Policy' },
  { key: 'overview', label: 'Overview' },
  { key: 'payment', label: 'Payment' },
] as const;

/** A reschedule keeps the booking's location, packages and payment: only these steps apply. */
export const RESCHEDULE_STEPS: readonly { key: WizardStepKey; label: string }[] = [
  { key: 'location', label: 'Location' },
  { key: 'bookingType', label: 'Type' },
  { key: 'sessionTime', label: 'New time' },
];

export type WizardStepKey = (typeof WIZARD_STEPS)[number]['key'];
export const FIRST_STEP = 0;
export const LAST_STEP = WIZARD_STEPS.length - 1;

export function clampStep(step: number): number {
  return Math.min(LAST_STEP, Math.max(FIRST_STEP, Math.trunc(step)));
}

export function stepIndex(key: WizardStepKey): number {
  return WIZARD_STEPS.findIndex((step) => step.key === key);
}
