import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useCallback, useState } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Provider } from 'react-redux';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { goToStep, selectActiveStep, setLocation, setReservationData, toggleSlotType } from '../state/booking-slice';
import { letGoAndGoBack, popToStep } from '../hold/hold-actions';
import { releaseAsked } from '../hold/release-ask';
import { useStepBack, useStepHistory } from './use-step-history';
import { SYDNEY_FIXTURE, wizardTestStore } from '../state/wizard-test-store';

/** A wizard reduced to its step: Next and Previous are the steps' own buttons. */
function Wizard({
  start,
  paused = false,
  onPop = () => {},
}: {
  start: number;
  paused?: boolean;
  onPop?: (step: number) => void;
}) {
  const [step, setStep] = useState(start);
  const popped = useCallback(
    (target: number) => {
      onPop(target);
      setStep(target);
    },
    [onPop],
  );
  useStepHistory(step, popped, paused);
  return (
    <>
      <p>step {step}</p>
      <button onClick={() => setStep((s) => s + 1)}>Next</button>
      <button onClick={() => setStep((s) => s - 1)}>Previous</button>
      <button onClick={() => setStep(3)}>Jump to 3</button>
    </>
  );
}

const wizard = (props: Parameters<typeof Wizard>[0]) => (
  <MemoryRouter>
    <Wizard {...props} />
  </MemoryRouter>
);

const steps = () => (window.history.state as { wizardSteps?: number[] } | null)?.wizardSteps;
const browserBack = () => act(() => window.history.back());
const browserForward = () => act(() => window.history.forward());

describe('useStepHistory: the browser moves between the wizard steps', () => {
  let before: number;
  beforeEach(() => {
    // An entry of another page below the wizard's first one, as /bookings would be.
    window.history.pushState({ page: 'bookings' }, '');
    window.history.pushState(null, '');
    before = window.history.length;
  });

  it('gives each step reached forwards its own entry; Back and Forward move between them', async () => {
    render(wizard({ start: 0 }));
    expect(steps()).toEqual([0]);
    for (let i = 0; i < 3; i += 1) fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('step 3')).toBeInTheDocument();
    expect(window.history.length).toBe(before + 3);
    expect(steps()).toEqual([0, 1, 2, 3]);

    browserBack();
    await screen.findByText('step 2');
    browserBack();
    await screen.findByText('step 1');
    browserForward();
    await screen.findByText('step 2');
    expect(steps()).toEqual([0, 1, 2]);
  });

  it(
    'a step moved back without the browser (a lapsed hold) takes over its entry, and Back goes on from ' + 'there',
    async () => {
      render(wizard({ start: 0 }));
      for (let i = 0; i < 3; i += 1) fireEvent.click(screen.getByRole('button', { name: 'Next' }));
      fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
      expect(steps()).toEqual([0, 1, 2]);
      expect(window.history.length).toBe(before + 3);

      browserBack();
      await screen.findByText('step 2');
      browserBack();
      await screen.findByText('step 1');
    },
  );

  it('a jump forwards is one entry: Back returns to the step it was made from', async () => {
    render(wizard({ start: 1 }));
    fireEvent.click(screen.getByRole('button', { name: 'Jump to 3' }));
    expect(steps()).toEqual([1, 3]);
    browserBack();
    await screen.findByText('step 1');
  });

  it('lets the browser leave the wizard from its first entry, without a step of its own', async () => {
    const onPop = vi.fn();
    render(wizard({ start: 0, onPop }));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    browserBack();
    await screen.findByText('step 0');
    browserBack();
    await waitFor(() => expect(window.history.state).toEqual({ page: 'bookings' }));
    expect(onPop.mock.calls).toEqual([[0]]);
  });

  it(
    'a step reached while paused (an offer opening) stands for the page entry: Back then leaves the wizard at that ' +
      'step',
    async () => {
      const onPop = vi.fn();
      const { rerender } = render(wizard({ start: 0, paused: true, onPop }));
      expect(steps()).toBeUndefined();
      fireEvent.click(screen.getByRole('button', { name: 'Jump to 3' }));
      rerender(wizard({ start: 0, paused: false, onPop }));
      expect(steps()).toEqual([3]);
      expect(window.history.length).toBe(before);

      browserBack();
      await waitFor(() => expect(window.history.state).toEqual({ page: 'bookings' }));
      expect(onPop).not.toHaveBeenCalled();
      expect(screen.getByText('step 3')).toBeInTheDocument();
    },
  );

  it("never walks back over a previous visit's entries: a stale entry starts afresh at the step shown", () => {
    window.history.replaceState({ wizardSteps: [0, 1, 2] }, '');
    const go = vi.spyOn(window.history, 'go');
    render(wizard({ start: 0 }));
    expect(go).not.toHaveBeenCalled();
    expect(steps()).toEqual([0]);
    go.mockRestore();
  });
});

/** The wizard page's wiring (create-booking-page.tsx) on a real wizard store, and a step's Back button. */
function StoreWizard() {
  const dispatch = useWizardDispatch();
  const step = useWizardSelector(selectActiveStep);
  useStepHistory(
    step,
    useCallback((target: number) => void dispatch(popToStep(target)), [dispatch]),
  );
  const back = useStepBack();
  return (
    <>
      <p>step {step}</p>
      <button onClick={back}>Back</button>
    </>
  );
}

describe("useStepBack: the steps' Back button", () => {
  const hold = { holdId: 'h1', slotId: 's1', expiresAt: '2099-01-01T00:10:00.000Z' };
  function heldAtPackage() {
    const t = wizardTestStore({ 'POST /bookings/reservation/h1/cancel': { id: 'h1', status: 'cancelled' } });
    t.store.dispatch(setLocation(SYDNEY_FIXTURE));
    t.store.dispatch(toggleSlotType(SYDNEY_FIXTURE.slotTypes[0]!));
    t.store.dispatch(setReservationData(hold));
    return t;
  }
  const renderWizard = (store: ReturnType<typeof wizardTestStore>['store']) =>
    render(
      <Provider store={store}>
        <MemoryRouter>
          <StoreWizard />
        </MemoryRouter>
      </Provider>,
    );
  beforeEach(() => window.history.pushState({ page: 'bookings' }, ''));

  it(
    "is the browser's Back when the step before has its entry: the hold stays back to Session and goes before it " +
      'once the family lets it go',
    async () => {
      const t = heldAtPackage();
      renderWizard(t.store);
      const length = window.history.length;
      for (const step of [1, 2, 3]) act(() => t.store.dispatch(goToStep(step)));
      expect(steps()).toEqual([0, 1, 2, 3]);

      fireEvent.click(screen.getByRole('button', { name: 'Back' }));
      await screen.findByText('step 2');
      expect(steps()).toEqual([0, 1, 2]);
      expect(t.store.getState().booking.reservationData).toEqual(hold);
      fireEvent.click(screen.getByRole('button', { name: 'Back' }));
      // Asked first (issue 37 item 2): "Let it go" moves on.
      await waitFor(() => expect(releaseAsked()).toBe(1));
      await act(() => t.store.dispatch(letGoAndGoBack()));
      await screen.findByText('step 1');
      expect(t.store.getState().booking.reservationData).toBeNull();
      await waitFor(() => expect(t.calls).toContain('POST /bookings/reservation/h1/cancel'));
      // Forward entries are the browser's, as after its own Back, and its Back goes on to the first step.
      expect(window.history.length).toBe(length + 3);
      browserBack();
      await screen.findByText('step 0');
    },
  );

  it(
    'steps back in place when the wizard was opened at that step (from My Bookings): it never leaves the ' + 'wizard',
    async () => {
      const t = heldAtPackage();
      t.store.dispatch(goToStep(3));
      renderWizard(t.store);
      expect(steps()).toEqual([3]);
      fireEvent.click(screen.getByRole('button', { name: 'Back' }));
      await screen.findByText('step 2');
      expect(steps()).toEqual([2]);
      expect(t.store.getState().booking.reservationData).toEqual(hold);
    },
  );
});
