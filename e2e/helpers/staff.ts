import { writeFileSync } from 'node:fs';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { addDays, localDateOf } from '@kringle/contracts/dates';
import { demoSeason } from '../../apps/api/src/modules/catalogue/demo-season';
import { appCheckToken, loadSeason } from './app';

export const STAFF_EMAIL = 'elf@kringle.test';
export const STAFF_PASSWORD = 'HoHoHo-2026!';

/** Signs in at /staff through the form, as staff do. */
export async function signInAsStaff(page: Page, email = STAFF_EMAIL, password = STAFF_PASSWORD) {
  await page.goto('/staff');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const WIDTH = 640;
const HEIGHT = 480;

/**
 * Writes a picture as a Y4M video (YUV 4:2:0, 640×480, a few identical frames) for Chromium's
 * fake camera (`--use-file-for-fake-video-capture`), which loops it: what a tablet's camera sees
 * when a family holds up their phone. The picture is scaled to fit (nearest neighbour keeps the
 * QR modules sharp) and centred on white.
 */
export function pngToY4m(png: Buffer, file: string, frames = 10): void {
  const image = PNG.sync.read(png);
  const scale = Math.min((WIDTH - 40) / image.width, (HEIGHT - 40) / image.height);
  const w = Math.floor(image.width * scale);
  const h = Math.floor(image.height * scale);
  const left = Math.floor((WIDTH - w) / 2);
  const top = Math.floor((HEIGHT - h) / 2);
  const y = Buffer.alloc(WIDTH * HEIGHT, 255);
  for (let row = 0; row < h; row++) {
    for (let col = 0; col < w; col++) {
      const i = (Math.floor(row / scale) * image.width + Math.floor(col / scale)) * 4;
      const [r, g, b, a] = [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!, image.data[i + 3]! / 255];
      // BT.601 luma over white, full range (C420jpeg).
      const luma = 0.299 * r + 0.587 * g + 0.114 * b;
      y[(top + row) * WIDTH + left + col] = Math.round(luma * a + 255 * (1 - a));
    }
  }
  // Grey: no colour, which is all a black-and-white QR code needs.
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma, chroma]);
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`),
      ...Array.from({ length: frames }, () => frame),
    ]),
  );
}

export interface RunSheetItem {
  slot: { id: string; kind: string; startAt: string; state: string; slotType: { id: string; name: string } };
  booking: { id: string; reference: string } | null;
}

/** The demo staff account through the API (as the staff app calls it). */
export async function staffClient(request: APIRequestContext) {
  const token = await appCheckToken(request);
  const appCheck: Record<string, string> = token ? { 'X-App-Check': token } : {};
  const signIn = await request.post('/api/v1/auth/sign-in', {
    data: { email: STAFF_EMAIL, password: STAFF_PASSWORD },
    headers: appCheck,
  });
  expect(signIn.ok(), await signIn.text()).toBe(true);
  const { idToken } = (await signIn.json()) as { idToken: string };
  const headers = { ...appCheck, Authorization: `Bearer ${idToken}` };
  return {
    async get<T>(path: string): Promise<T> {
      const res = await request.get(`/api/v1${path}`, { headers });
      expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
      return (await res.json()) as T;
    },
  };
}

const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/**
 * A location of its own whose local clock reads about 11:00 now, loaded as the operator loads a
 * season (`season:load`): whatever the hour in Australia, it has a day of sessions ahead, so the
 * check-in journey never depends on when CI runs. Its zone is a fixed-offset one (`Etc/GMT-10`
 * is UTC+10); the location is the demo's Sydney one under another slug and name, open every day,
 * with a pet night every evening (the demo's is on Mondays) so a walk-in can be sold one any day.
 */
export function loadLocationOpenNow(name: string, slug: string): void {
  const now = new Date();
  const hoursAhead = (11 - now.getUTCHours() + 24) % 24;
  const offset = hoursAhead > 11 ? hoursAhead - 24 : hoursAhead;
  // POSIX sign: Etc/GMT-10 is ten hours ahead of UTC.
  const timezone = offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
  const today = localDateOf(now, timezone);
  const season = demoSeason(now, { days: 42 });
  const sessions = [
    { slotType: 'standard', days: [...EVERY_DAY], hours: '10:00-17:30' },
    { slotType: 'pet-night', days: [...EVERY_DAY], hours: '18:30-20:30' },
  ];
  const location = {
    ...season.locations[0]!,
    slug,
    name,
    timezone,
    sessions,
    seasonStart: today,
    seasonEnd: addDays(today, 6),
    closedDates: [],
    salesOpenAt: undefined,
  };
  loadSeason({ ...season, locations: [location] });
}

/**
 * Free sessions later today at the named location that a family can still book online (past the
 * 60-minute lead time), spread out so the walk-in below rarely meets them.
 */
export async function sessionsLaterToday(request: APIRequestContext, locationName: string, count: number) {
  const staff = await staffClient(request);
  const { locations } = await staff.get<{ locations: { id: string; name: string; timezone: string }[] }>(
    '/staff/catalogue',
  );
  const location = locations.find((l) => l.name === locationName);
  expect(location, `${locationName} in the staff catalogue`).toBeTruthy();
  const soon = Date.now() + 75 * 60_000;
  const sheet = await staff.get<{ items: RunSheetItem[] }>(`/staff/run-sheet?locationId=${location!.id}`);
  const free = sheet.items.filter(
    (i) => i.slot.kind === 'session' && i.slot.state === 'free' && Date.parse(i.slot.startAt) > soon,
  );
  const picks = free.filter((_, i) => i % 3 === 0).slice(0, count);
  expect(picks, `${count} free sessions later today at ${locationName}`).toHaveLength(count);
  return {
    location: location!,
    slots: picks.map((i) => ({
      id: i.slot.id,
      locationId: location!.id,
      slotTypeId: i.slot.slotType.id,
      startAt: i.slot.startAt,
    })),
  };
}

/**
 * The staff app's page links (issue 53 item 11): on the header line where they fit, else behind
 * the header's Menu button, which this opens.
 */
export async function staffNav(page: Page) {
  const nav = page.getByRole('navigation', { name: 'Staff' });
  const menu = page.getByRole('banner').getByRole('button', { name: 'Menu' });
  await expect(menu).toBeVisible({ timeout: 30_000 });
  if (!(await nav.isVisible())) await openStaffMenu(page);
  return nav;
}

/** Opens the staff header's menu (the pages that do not fit, and the account: sign out, sign out everywhere). */
export async function openStaffMenu(page: Page) {
  const menu = page.getByRole('banner').getByRole('button', { name: 'Menu' });
  if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
}
