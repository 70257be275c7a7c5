import { describe, expect, it } from 'vitest';
import { resetStore } from '../../../lib/reset-action';
import type { Location } from '@kringle/contracts/catalogue';
import {
  activeStep,
  bookingReducer,
  goToStep,
  initialBookingState,
  nextStep,
  resetStep,
  setLocation,
  setReservationData,
  startReschedule,
  toggleSlotType,
  upsertItem,
  type BookingLocation,
  type BookingState,
  type SlotTypeChoice,
} from './booking-slice';
import { LAST_STEP, WIZARD_STEPS } from './wizard-steps';

const run = (actions: Parameters<typeof bookingReducer>[1][], state: BookingState = initialBookingState) =>
  actions.reduce(bookingReducer, state);

describe('wizard steps', () => {
  it('are the seven of spec §2, in order, with their labels', () => {
    expect(WIZARD_STEPS.map((s) => `${s.key}:${s.label}`)).toEqual([
      'location:Location',
      'bookingType:Type',
      'sessionTime:Session',
      'package:Package',
      'terms:Policy',
      'overview:Overview',
      'payment:Payment',
    ]);
  });

  it('next, goTo and reset are clamped between the first and last step', () => {
    expect(run([goToStep(-1)]).currentStep).toBe(0);
    expect(run([nextStep(), nextStep()]).currentStep).toBe(2);
    expect(run(Array.from({ length: 12 }, () => nextStep())).currentStep).toBe(LAST_STEP);
    expect(run([nextStep(), nextStep(), goToStep(1)]).currentStep).toBe(1);
    expect(run([nextStep(), nextStep(), resetStep()]).currentStep).toBe(0);
    expect(run([goToStep(99)]).currentStep).toBe(6);
    expect(run([goToStep(-3)]).currentStep).toBe(0);
  });
});

describe('booking slice', () => {
  const standard = { id: 'st-1', name: 'Standard' } as SlotTypeChoice;
  const sensory = { id: 'st-2', name: 'Sensory-friendly' } as SlotTypeChoice;

  it('slotType is a single-item list; selecting the same type again clears it', () => {
    expect(run([toggleSlotType(standard)]).slotType).toEqual([standard]);
    expect(run([toggleSlotType(standard), toggleSlotType(sensory)]).slotType).toEqual([sensory]);
    expect(run([toggleSlotType(standard), toggleSlotType(standard)]).slotType).toEqual([]);
  });

  it('items default to quantity 1 and are keyed by id', () => {
    const state = run([upsertItem({ _id: 'p1', type: 'package', totalPrice: 4995 })]);
    expect(state.packages).toEqual({
      p1: { _id: 'p1', type: 'package', totalPrice: 4995, totalQuantity: 1, remove: false },
    });
  });

  it('starting a reschedule resets the state, keeps the location and stores the data', () => {
    const location = { id: 'loc-1', name: 'Sydney', timezone: 'Australia/Sydney' } as BookingLocation;
    const busy = run([
      setLocation(location),
      toggleSlotType(standard),
      nextStep(),
      nextStep(),
      setReservationData({ holdId: 'h', slotId: 's', expiresAt: '2026-12-01T00:10:00Z' }),
    ]);
    const state = run([startReschedule({ bookingId: 'b-1' })], busy);
    expect(state).toEqual({
      ...initialBookingState,
      location,
      rescheduleData: { bookingId: 'b-1' },
      holdChangedAt: expect.any(Number),
    });
  });

  it('a store reset clears everything', () => {
    expect(run([setLocation({ id: 'l', name: 'Perth' } as BookingLocation), resetStore()])).toEqual(
      initialBookingState,
    );
  });
});

const standardType = {
  id: 'st-1',
  name: 'Santa photos',
  description: 'A classic visit',
  durationMinutes: 10,
  allowsPets: false,
};
const place = (id: string, name: string): Location => ({
  id,
  name,
  address: '1 Pitt Street Mall',
  suburb: 'Sydney',
  state: 'NSW',
  timezone: 'Australia/Sydney',
  imageUrl: '',
  seasonStart: '2026-11-22',
  seasonEnd: '2027-01-02',
  salesOpenAt: null,
  slotTypes: [standardType],
});
const hold = { holdId: 'h', slotId: 's', expiresAt: '2026-12-01T00:10:00Z' };

describe('location and session type', () => {
  it('choosing another location clears the session type (types belong to a location); the same one keeps it', () => {
    const sydney = place('syd', 'Sydney');
    expect(run([setLocation(sydney), toggleSlotType(standardType), setLocation(sydney)]).slotType).toEqual([
      standardType,
    ]);
    expect(
      run([setLocation(sydney), toggleSlotType(standardType), setLocation(place('per', 'Perth'))]).slotType,
    ).toEqual([]);
  });
});

describe('activeStep: the step shown is derived from what has been chosen', () => {
  const sydney = place('syd', 'Sydney');
  it('never passes a missing location, type or hold', () => {
    expect(activeStep(run([goToStep(5)]))).toBe(0);
    expect(activeStep(run([setLocation(sydney), goToStep(5)]))).toBe(1);
    expect(activeStep(run([setLocation(sydney), toggleSlotType(standardType), goToStep(5)]))).toBe(2);
    expect(
      activeStep(run([setLocation(sydney), toggleSlotType(standardType), setReservationData(hold), goToStep(5)])),
    ).toBe(5);
  });

  it('follows currentStep below those limits', () => {
    expect(activeStep(run([setLocation(sydney), toggleSlotType(standardType)]))).toBe(0);
    expect(activeStep(run([setLocation(sydney), toggleSlotType(standardType), nextStep()]))).toBe(1);
    expect(
      activeStep(
        run([setLocation(sydney), toggleSlotType(standardType), setReservationData(hold), goToStep(3), goToStep(2)]),
      ),
    ).toBe(2);
  });
});
