import { useCallback, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { selectActiveStep } from '../state/booking-slice';
import { popToStep } from '../hold/hold-actions';

/** Where a wizard entry keeps its steps, beside React Router's own keys in `history.state`. */
const STEPS_KEY = 'wizardSteps';

/**
 * The steps that led to a history entry, the last one being the step it shows; null for an entry the wizard did not
 * write.
 */
function stepsOf(state: unknown): number[] | null {
  const steps = (state as Record<string, unknown> | null)?.[STEPS_KEY];
  return Array.isArray(steps) && steps.length > 0 && steps.every(Number.isInteger) ? (steps as number[]) : null;
}

function write(how: 'push' | 'replace', steps: number[]) {
  // React Router's keys (usr, key, idx) stay, so it sees the same location on every step's entry.
  const state = { ...(window.history.state as Record<string, unknown> | null), [STEPS_KEY]: steps };
  if (how === 'push') window.history.pushState(state, '');
  else window.history.replaceState(state, '');
}

/**
 * The browser's Back and Forward move between the wizard's steps (decision 0045). Each step
 * reached forwards gets a history entry of the same address, whose state lists the steps that led
 * to it; the steps' Back buttons go back through those entries (useStepBack). `onPop` gets the
 * step of the entry the browser moved to. While `paused` (an offer link opening), no entry is
 * written: the step the wizard then lands on stands for the page's entry.
 */
export function useStepHistory(step: number, onPop: (step: number) => void, paused = false) {
  const { key } = useLocation();
  const popped = useRef(onPop);
  // The location this hook has already written to: only there are the listed steps the entries
  // below, not a previous visit's (reached by the browser's Back from another page).
  const ownKey = useRef<string | null>(null);

  useEffect(() => {
    popped.current = onPop;
  }, [onPop]);

  useEffect(() => {
    const onPopState = (event: PopStateEvent) => {
      const steps = stepsOf(event.state);
      if (steps) popped.current(steps[steps.length - 1]!);
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, []);

  useEffect(() => {
    if (paused) return;
    const own = ownKey.current === key;
    ownKey.current = key;
    const steps = stepsOf(window.history.state);
    const here = steps?.[steps.length - 1];
    if (here === step) return;
    // The listed steps are the entries below this one, so an entry not written here starts afresh.
    if (!own || !steps || here === undefined) return write('replace', [step]);
    if (step > here) return write('push', [...steps, step]);
    // Moved back without the browser (a lapsed hold, another tab): this entry now shows that step.
    // Not history.go(): it lands after a navigation started at the same time (a lapsed hold's /expired) and undoes it.
    write('replace', [...steps.filter((s) => s < step), step]);
  }, [step, paused, key]);
}

/**
 * The steps' own Back button. When the step before has its entry just below, it is the browser's
 * Back, so both walk one history and the next Back goes one step further; otherwise (a step
 * opened from My Bookings or an offer) a step back in place.
 */
export function useStepBack(): () => void {
  const dispatch = useWizardDispatch();
  const step = useWizardSelector(selectActiveStep);
  return useCallback(() => {
    const steps = stepsOf(window.history.state);
    if (steps && steps[steps.length - 1] === step && steps[steps.length - 2] === step - 1) window.history.back();
    else void dispatch(popToStep(step - 1));
  }, [dispatch, step]);
}
