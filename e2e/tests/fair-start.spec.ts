import { expect, test, type Browser, type Page } from '@playwright/test';
import { addDays, localDateOf, localTimeOf } from '@kringle/contracts/dates';
import { demoSeason } from '../../apps/api/src/modules/catalogue/demo-season';
import { loadSeason, SCREENSHOT_DIR } from '../helpers/app';
import { expectAccessible, stepHeading } from '../helpers/purchase';
import { apiCustomer, signInFreshCustomer } from '../helpers/wizard';

const ZONE = 'Australia/Brisbane';
const NAME = 'Kringle Fair Start, Brisbane';

/**
 * Issue 40: a season whose sales open at the next whole minute at least 40 s away, with its waiting
 * room open already. Three families join at 390 px; at the instant the draw places them; with one
 * session on sale one family is admitted (1.5 × 1 free, rounded down), is told it is its turn and
 * until when, goes into the wizard and holds it; the other two are then told "Sold out for now". The draw checks out.
 */
test(
  'three families join the waiting room, the draw admits by stock, the last session held sells the line ' + 'out',
  async ({ browser, baseURL, request }) => {
    test.setTimeout(240_000);
    const at = new Date(Math.ceil((Date.now() + 40_000) / 60_000) * 60_000);
    const salesOpenAt = `${localDateOf(at, ZONE)}T${localTimeOf(at, ZONE)}`;
    const season = demoSeason(new Date(), { days: 42 });
    const tomorrow = addDays(localDateOf(new Date(), ZONE), 1);
    // One session on sale: tomorrow 10:00-10:10.
    const location = {
      ...season.locations.find((l) => l.timezone === ZONE)!,
      slug: 'fair-start-brisbane',
      name: NAME,
      seasonStart: tomorrow,
      seasonEnd: tomorrow,
      closedDates: [],
      breaks: [],
      sessions: [
        { slotType: 'standard', days: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'], hours: '10:00-10:10' },
      ],
      salesOpenAt,
      queue: { opensMinutesBefore: 10 },
    } as (typeof season.locations)[number];
    loadSeason({ ...season, locations: [...season.locations, location] });

    const reader = await apiCustomer(request, baseURL!, 'fair-start-api');
    const { items } = await reader.get<{ items: { id: string; name: string; queueOpensAt?: string | null }[] }>(
      '/common/locations',
    );
    const place = items.find((l) => l.name === NAME)!;
    expect(place.queueOpensAt).toBe(new Date(at.getTime() - 10 * 60_000).toISOString());

    const families: Page[] = [];
    for (let i = 0; i < 3; i++) families.push(await familyPage(browser, baseURL!, `fair-start-${i}`));
    for (const [i, page] of families.entries()) {
      await page.goto(`/queue/${place.id}`);
      await page.getByRole('button', { name: 'Join the line' }).click();
      await expect(page.getByTestId('queue-ticket')).toHaveAttribute('data-status', 'before_open');
      await expect(page.getByTestId('queue-countdown')).toHaveText(/^[0-9]+:[0-9]{2}$/);
      if (i === 0) {
        await expectAccessible(page, 'waiting room before the opening');
        await page.screenshot({ path: `${SCREENSHOT_DIR}/fair-start/390-before.png`, fullPage: true });
      }
    }
    // Leaving and coming back keeps the place.
    await families[1]!.reload();
    await expect(families[1]!.getByTestId('queue-ticket')).toHaveAttribute('data-status', 'before_open');

    // The draw: before it, the seed is hidden; after it, published, and the order checks out.
    const before = await (await request.get(`/api/v1/queue/${place.id}/fairness`)).json();
    expect(before).toMatchObject({ seed: null, drawnAt: null });
    expect(before.entrants).toHaveLength(3);

    // One family is admitted: told it is its turn and until when, counting down (issue 53 item 10); it
    // goes into the wizard on its own tap. The others wait, then sell out when it holds.
    const admitted = await Promise.race(
      families.map((page, i) =>
        page
          .getByTestId('queue-admission')
          .waitFor({ timeout: 120_000 })
          .then(() => i),
      ),
    );
    const winner = families[admitted]!;
    await expect(winner.getByTestId('queue-admission').getByRole('status')).toHaveText(
      /^It's your turn at Kringle Fair Start, Brisbane! You have \d+ minutes?, until \d{1,2}:\d\d [ap]m AEST, to choose a session\.$/,
    );
    await expect(winner.getByTestId('admission-countdown')).toHaveText(/^\d{1,2}:\d\d$/);
    await expectAccessible(winner, 'waiting room, admitted');
    await winner.screenshot({ path: `${SCREENSHOT_DIR}/fair-start/390-admitted.png`, fullPage: true });
    await winner.getByRole('button', { name: 'Choose a session' }).click();
    await winner.waitForURL(/\/create-booking$/);
    const after = await (await request.get(`/api/v1/queue/${place.id}/fairness`)).json();
    expect(after.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(after.drawnAt).not.toBeNull();
    const others = families.filter((_, i) => i !== admitted);
    for (const page of others)
      await expect(page.getByTestId('queue-ticket')).toHaveAttribute('data-status', /waiting|sold_out/);
    await others[0]!.screenshot({ path: `${SCREENSHOT_DIR}/fair-start/390-waiting.png`, fullPage: true });

    await expect(stepHeading(winner)).toHaveText('What kind of visit?', { timeout: 20_000 });
    await winner.getByRole('button', { name: /^Santa photos/ }).click();
    await winner.getByRole('button', { name: 'Continue' }).click();
    await expect(stepHeading(winner)).toHaveText('Choose a day and time');
    await winner.locator(`button[data-date="${tomorrow}"]`).click();
    await winner.locator('[data-status="available"]').first().click();
    await expect(stepHeading(winner)).toHaveText('Choose your photo package', { timeout: 15_000 });

    for (const page of others) {
      await expect(page.getByTestId('queue-ticket')).toHaveAttribute('data-status', 'sold_out', { timeout: 20_000 });
      await expect(page.getByText('Sold out for now')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Join the waitlist' })).toBeVisible();
    }
    await expectAccessible(others[0]!, 'waiting room, sold out for now');
    await others[0]!.screenshot({ path: `${SCREENSHOT_DIR}/fair-start/390-sold-out.png`, fullPage: true });

    // The drop's report, linked from the waiting page (issue 55): the draw to check and the figures so far.
    const viewer = others[0]!;
    await viewer.getByRole('link', { name: 'The draw and how the opening went' }).click();
    await viewer.waitForURL(new RegExp(`/drop-report/${place.id}$`));
    await expect(viewer.getByRole('heading', { name: `How bookings opened at ${NAME}` })).toBeVisible();
    await expect(viewer.getByText(/ AEST$/)).toBeVisible();
    await expect(viewer.getByText('The line is still open: these figures may change.')).toBeVisible();
    await expect(viewer.getByText(after.seed)).toBeVisible();
    await expect(viewer.getByText('Families in the draw').locator('xpath=following-sibling::dd')).toHaveText('3');
    await expectAccessible(viewer, 'drop report');
    await viewer.screenshot({ path: `${SCREENSHOT_DIR}/fair-start/390-drop-report.png`, fullPage: true });
    await viewer.setViewportSize({ width: 1280, height: 900 });
    await viewer.screenshot({ path: `${SCREENSHOT_DIR}/fair-start/1280-drop-report.png`, fullPage: true });
  },
);

async function familyPage(browser: Browser, baseURL: string, tag: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signInFreshCustomer(page, baseURL, tag);
  return page;
}
