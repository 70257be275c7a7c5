import { expect, type APIRequestContext } from '@playwright/test';
import { customerClient, type CustomerClient } from './bookings';
import { createVerifiedCustomer } from './wizard';

interface Location {
  id: string;
  name: string;
  slotTypes: { id: string; name: string }[];
}

export interface FullDay {
  locationId: string;
  slotTypeId: string;
  date: string;
  /** The hold on the day's last session (family A's). */
  lastHold: { id: string; client: CustomerClient };
}

export async function family(request: APIRequestContext, origin: string, tag: string) {
  const account = await createVerifiedCustomer(request, origin, tag);
  return { ...account, api: await customerClient(request, account.email, account.password) };
}

/**
 * The waitlist's starting point, made through the API only: a Sensory-friendly Santa day at
 * Sydney (no other journey books that type) whose sessions are all held, the last by family A.
 * Each filler family holds one session (a customer has one hold at a time). Days are taken from
 * the season's end, `skip` open days in, so parallel runs and reruns keep to their own days.
 */
export async function sellOutADay(
  request: APIRequestContext,
  origin: string,
  skip: number,
  tag: string,
  exclude: string[] = [],
): Promise<FullDay> {
  const a = await family(request, origin, `${tag}-a`);
  const { items: locations } = await a.api.get<{ items: Location[] }>('/common/locations');
  const sydney = locations.find((l) => l.name.includes('Sydney'))!;
  const sensory = sydney.slotTypes.find((t) => t.name.startsWith('Sensory'))!;
  const dates = await a.api.get<{ items: { date: string; available: number }[] }>(
    `/booking-slot/${sydney.id}/available-dates?slotTypeId=${sensory.id}`,
  );
  const open = dates.items.filter((d) => d.available > 0 && d.available <= 6 && !exclude.includes(d.date));
  const day = open[open.length - 1 - skip]!;
  expect(day, 'an open Sensory-friendly day').toBeTruthy();
  const slots = await a.api.get<{ items: { id: string; kind: string; status: string }[] }>(
    `/booking-slot/${sydney.id}/available-slots?date=${day.date}&slotTypeId=${sensory.id}`,
  );
  const free = slots.items.filter((s) => s.kind === 'session' && s.status === 'available');
  for (const [i, slot] of free.slice(0, -1).entries()) {
    const filler = await family(request, origin, `${tag}-f${i}`);
    await filler.api.post('/bookings/reservation', { slotId: slot.id }, [201]);
  }
  const hold = await a.api.post<{ id: string }>('/bookings/reservation', { slotId: free[free.length - 1]!.id }, [201]);
  return { locationId: sydney.id, slotTypeId: sensory.id, date: day.date, lastHold: { id: hold.id, client: a.api } };
}

interface OutboxItem {
  subject: string;
  text: string;
}

/** The offer e-mail to `to` (dev outbox), its link as a path on the test server; `notPath`: one already used. */
export async function offerLinkFor(request: APIRequestContext, to: string, notPath?: string): Promise<string> {
  let path: string | undefined;
  await expect
    .poll(
      async () => {
        const { items } = (await (await request.get(`/api/v1/dev/outbox?to=${encodeURIComponent(to)}`)).json()) as {
          items: OutboxItem[];
        };
        const paths = items
          .filter((m) => /^A session came free/.test(m.subject))
          .map((m) => /https?:\/\/\S+\/create-booking\?offer=[\w-]+/.exec(m.text)?.[0])
          .map((link) => (link ? `${new URL(link).pathname}${new URL(link).search}` : undefined));
        path = paths.find((p) => p && p !== notPath);
        return path;
      },
      { timeout: 20_000, message: `an offer e-mail to ${to}` },
    )
    .toBeTruthy();
  return path!;
}
