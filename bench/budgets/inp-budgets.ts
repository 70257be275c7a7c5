import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { onINP } from 'web-vitals/attribution';
import { appCheckToken, signInThroughApi } from '../../e2e/helpers/app';
import { chooseOpenDay, stepHeading, toSessionStep } from '../../e2e/helpers/purchase';
import { benchmarkIndex, calibratedCpuSlowdown } from './cpu-calibration';
import { waitForQuietHost } from './host-cpu';
import type { Family } from './signed-in-family';

/**
 * Issue 21: Interaction to Next Paint of the wizard's main actions, on a phone-sized page with
 * the CPU slowed down (Chromium's own throttling, as DevTools applies it) to the phone Lighthouse's
 * 4x makes of a fast desktop, calibrated to the host before each run as for Lighthouse (at most 4x,
 * decision 0104), under 200 ms each. Measured by the `web-vitals` library (its attribution build,
 * injected by this check and never shipped), one action per page load: the wizard's state is kept
 * across a reload, so each load has exactly one interaction and its INP is that action's.
 */
export const INP_BUDGET_MS = 200;
/** Runs per action at most; an action passes when one run is under budget (contention only adds delay). */
export const INP_MAX_RUNS = 4;
export const WIZARD_ACTIONS = ['choose a day', 'choose a time', 'add a package'] as const;
export type WizardAction = (typeof WIZARD_ACTIONS)[number];

/** Lighthouse's mobile screen (Moto G Power), so the wizard takes its phone layout. */
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

export interface InpSample {
  /** INP of the page load, i.e. of this one action, in ms. */
  inpMs: number;
  /** web-vitals' attribution: where the time went. */
  inputDelayMs: number;
  processingMs: number;
  presentationMs: number;
  target: string;
}

export interface InpRun {
  samples: Partial<Record<WizardAction, InpSample>>;
  host: { busy: number | null; steal: number | null; waitedMs: number };
  /** Chromium's CPU throttling for this run, and the benchmark index read just before it that set it. */
  cpuSlowdown: number;
  calibrationIndex: number;
}

export interface ActionResult {
  action: WizardAction;
  passed: boolean;
  best: InpSample;
  /** Every run's INP for the action, in ms, and the CPU slowdown it ran at. */
  runs: { inpMs: number; cpuSlowdown: number }[];
}

const require = createRequire(import.meta.url);
// The package's script-tag build, which defines `webVitals` (its exports map names the module builds only).
const WEB_VITALS = fs
  .readFileSync(
    path.join(path.dirname(require.resolve('web-vitals/attribution')), 'web-vitals.attribution.iife.js'),
    'utf8',
  )
  .replace(/\/\/# sourceMappingURL=.*$/m, '')
  // Init scripts run in a function of their own: make it the page's global, as a script tag would.
  .concat('\nwindow.webVitals = webVitals;');

/** Keeps the page's latest INP report (reportAllChanges) where the check can read it. */
function recordInp() {
  const vitals = (window as unknown as { webVitals: { onINP: typeof onINP } }).webVitals;
  vitals.onINP(
    (metric) => {
      const a = metric.attribution;
      (window as unknown as { __inp: InpSample }).__inp = {
        inpMs: metric.value,
        inputDelayMs: Math.round(a.inputDelay),
        processingMs: Math.round(a.processingDuration),
        presentationMs: Math.round(a.presentationDelay),
        target: a.interactionTarget ?? '',
      };
    },
    { reportAllChanges: true, durationThreshold: 16 },
  );
}

/** The page has loaded and its first work is done: the family has read it before tapping. */
async function settle(page: Page) {
  await page.waitForLoadState('load');
  await page.waitForTimeout(500);
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5000 })));
}

/** Reloads (a fresh INP), waits for `ready`, does `act`, and returns that interaction's INP. */
async function measure(page: Page, ready: () => Promise<void>, act: () => Promise<void>): Promise<InpSample> {
  await page.reload();
  await ready();
  await settle(page);
  if (await page.evaluate(() => 'webVitals' in window && !('__inp' in window))) await act();
  else throw new Error('web-vitals did not load, or an interaction happened before the action');
  await page.waitForFunction(() => '__inp' in window, undefined, { timeout: 15_000 });
  return page.evaluate(() => (window as unknown as { __inp: InpSample }).__inp);
}

async function oneRun(
  browser: Browser,
  baseUrl: string,
  family: Family,
  run: number,
  cpuSlowdown: number,
): Promise<Partial<Record<WizardAction, InpSample>>> {
  const context = await browser.newContext({ ...PHONE, baseURL: baseUrl, locale: 'en-AU', timezoneId: 'UTC' });
  let idToken: string | null = null;
  try {
    const page = await context.newPage();
    await page.addInitScript(WEB_VITALS);
    await page.addInitScript(recordInp);
    ({ idToken } = await signInThroughApi(page, family.email, family.password));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    // Location and type (not measured), up to the Session step, which a reload keeps.
    await toSessionStep(page);
    const free = page.locator('[data-status="available"]');
    const sessionsShown = () => free.first().waitFor({ timeout: 30_000 });

    const samples: Partial<Record<WizardAction, InpSample>> = {};
    // Another open day each run (the first is shown already).
    samples['choose a day'] = await measure(page, sessionsShown, () => chooseOpenDay(page, 1 + run));
    samples['choose a time'] = await measure(page, sessionsShown, async () => {
      await free.nth(Math.floor(Math.random() * (await free.count()))).click();
      await stepHeading(page).filter({ hasText: 'Choose your photo package' }).waitFor({ timeout: 30_000 });
    });
    const firstPackage = page.getByRole('radio').first();
    samples['add a package'] = await measure(
      page,
      () => firstPackage.waitFor({ timeout: 30_000 }),
      async () => {
        await firstPackage.check();
        await page.getByRole('button', { name: 'Continue' }).first().waitFor();
      },
    );
    return samples;
  } finally {
    // A family holds one session at a time (decision 0059): the run lets its hold go for the next.
    if (idToken) await releaseHolds(context, idToken).catch(() => undefined);
    await context.close();
  }
}

async function releaseHolds(context: BrowserContext, idToken: string): Promise<void> {
  const token = await appCheckToken(context.request);
  const headers = { Authorization: `Bearer ${idToken}`, ...(token ? { 'X-App-Check': token } : {}) };
  const live = await context.request.get('/api/v1/bookings/reservation', { headers });
  const { items } = (await live.json()) as { items: { id: string; status: string }[] };
  for (const hold of items.filter((r) => r.status === 'active'))
    await context.request.post(`/api/v1/bookings/reservation/${hold.id}/cancel`, { headers });
}

/**
 * Measures the three actions up to INP_MAX_RUNS times each (a fresh browser context per run, the
 * family signed in as the end-to-end journeys sign in), until each has passed once; `everyRun`
 * makes every run, for the spread.
 */
export async function measureWizardInp(
  baseUrl: string,
  family: Family,
  { everyRun = false, log = console.log }: { everyRun?: boolean; log?: (line: string) => void } = {},
): Promise<{ actions: ActionResult[]; runs: InpRun[] }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-gpu',
    ],
  });
  const runs: InpRun[] = [];
  // Lighthouse's benchmark in a page of its own, never throttled (throttling is per page).
  const calibrationPage = await browser.newPage();
  const passed = (action: WizardAction) => runs.some((r) => (r.samples[action]?.inpMs ?? Infinity) < INP_BUDGET_MS);
  try {
    while (runs.length < INP_MAX_RUNS && (everyRun || !WIZARD_ACTIONS.every(passed))) {
      const quiet = await waitForQuietHost({ maxWaitMs: 20_000 });
      const calibrationIndex = await benchmarkIndex(calibrationPage);
      const cpuSlowdown = calibratedCpuSlowdown(calibrationIndex);
      const samples = await oneRun(browser, baseUrl, family, runs.length, cpuSlowdown);
      runs.push({
        samples,
        host: { busy: quiet.sample?.busy ?? null, steal: quiet.sample?.steal ?? null, waitedMs: quiet.waitedMs },
        cpuSlowdown,
        calibrationIndex,
      });
      const busy = quiet.sample ? `${Math.round(quiet.sample.busy * 100)}%` : '?';
      log(
        `  wizard INP run ${runs.length} at ${cpuSlowdown}x CPU slowdown (index ${calibrationIndex}, host ` +
          `${busy} busy): ${WIZARD_ACTIONS.map((a) => `${a} ${samples[a]?.inpMs ?? '?'} ms`).join(', ')}`,
      );
    }
  } finally {
    await browser.close();
  }
  const actions = WIZARD_ACTIONS.map((action) => {
    const measured = runs.flatMap((r) => {
      const sample = r.samples[action];
      return sample ? [{ sample, cpuSlowdown: r.cpuSlowdown }] : [];
    });
    if (!measured.length) throw new Error(`no INP was measured for "${action}"`);
    const best = measured.map((m) => m.sample).reduce((a, b) => (b.inpMs < a.inpMs ? b : a));
    const all = measured.map((m) => ({ inpMs: m.sample.inpMs, cpuSlowdown: m.cpuSlowdown }));
    return { action, passed: best.inpMs < INP_BUDGET_MS, best, runs: all };
  });
  return { actions, runs };
}
