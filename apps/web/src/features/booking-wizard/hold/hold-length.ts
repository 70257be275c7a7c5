import { useState } from 'react';
import type { Policy } from '@kringle/contracts/policy-schema';
import { useGetPolicyQuery } from '../../../lib/policy-api';

/**
 * How far over its length a fresh hold can read here: lib/server-clock.ts trusts the device's
 * clock when it is under 2 s off the server's, and the countdown rounds up to a whole second.
 */
const CLOCK_SLACK_SECONDS = 3;

/**
 * A hold's whole length in seconds. A hold is a picked session's (holdMinutes, and "I need more
 * time" gives holdMinutes again) or a waitlist offer (waitlistOfferMinutes, API.md): the time
 * left when the hold is first seen says which, allowing for the clocks' disagreement.
 */
function wholeHoldSeconds(firstSeen: number, policy: Pick<Policy, 'holdMinutes' | 'waitlistOfferMinutes'>): number {
  const lengths = [policy.holdMinutes, policy.waitlistOfferMinutes]
    .map((minutes) => minutes * 60)
    .sort((a, b) => a - b);
  return lengths.find((length) => firstSeen <= length + CLOCK_SLACK_SECONDS) ?? lengths[1]!;
}

/**
 * The seconds left to show: never more than the hold's whole length, which a device clock a
 * little behind the server's would otherwise show (a 10-minute hold read 10:01 after a reload).
 * The length is settled once per end date, so a 30-minute offer passing the 10-minute mark runs
 * on without a stall there. Until the policy has loaded, the time is shown as counted.
 */
export function useShownRemaining(endDate: string | null, remaining: number): number {
  const policy = useGetPolicyQuery().data;
  const [settled, setSettled] = useState<{ endDate: string; seconds: number } | null>(null);
  let whole = settled && settled.endDate === endDate ? settled.seconds : null;
  if (whole === null && endDate && policy) {
    whole = wholeHoldSeconds(remaining, policy);
    setSettled({ endDate, seconds: whole });
  }
  return whole === null ? remaining : Math.min(remaining, whole);
}
