import { chromium, type Browser } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { Result as LighthouseResult } from 'lighthouse';
import { benchmarkIndex, calibratedCpuSlowdown } from './cpu-calibration';
import { waitForQuietHost } from './host-cpu';
import { signInBrowser, type Family } from './signed-in-family';

/**
 * Lighthouse's mobile defaults (simulated throttling): the auth pages signed out (issue 7), and
 * the pages a family uses signed in, with their bookings and the season's sessions (issue 21).
 */
export const LIGHTHOUSE_PAGES: readonly {
  page: string;
  signedIn: boolean;
  data?: string;
  performanceEnforced: boolean;
}[] = [
  { page: '/login', signedIn: false, performanceEnforced: true },
  { page: '/register', signedIn: false, performanceEnforced: true },
  // `data`: the API call that must have answered 200 in the run, proof that the page was audited signed in and with its
  // data. Enforced from decision 0036 to 2026-11-26; reported only again since (decision 0061): on this round's
  // host (Lighthouse benchmark index 1,100-2,000, against 2,733 when they were calibrated) /bookings scores
  // 80-91 and /create-booking 79-95, main before the round's merges included. Accessibility stays enforced.
  { page: '/bookings', signedIn: true, data: '/api/v1/bookings/upcoming-bookings', performanceEnforced: false },
  { page: '/create-booking', signedIn: true, data: '/api/v1/common/locations', performanceEnforced: false },
];
export const THRESHOLDS = { performance: 0.95, accessibility: 1 } as const;
/**
 * Scores only drop under CPU contention (a loaded 2-core CI machine), they never rise above
 * what the page earns, so a page passes when any of up to this many runs meets both
 * thresholds; every run's scores are reported. A shared host's CPU slows down in spells of a
 * minute or more; the page keeps its margin there by booting in short tasks (decision 0013).
 */
export const MAX_RUNS = 5;
/** Before each run, wait for a quiet second (see waitForQuietHost), at most this long in all. */
const QUIET_WAIT_BUDGET_MS = 60_000;

const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-dev-shm-usage',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface PageRun {
  performance: number;
  accessibility: number;
  metrics: { fcpMs: number; lcpMs: number; tbtMs: number; cls: number; speedIndexMs: number };
  /** Origins other than the app's: must stay empty (the run is offline). */
  foreignRequests: string[];
  failedAudits: { id: string; title: string; score: number | null }[];
  /**
   * The host as the run began: its CPUs' busy and stolen shares over the second before (null
   * off Linux), how long we waited for that quiet, and Lighthouse's benchmark index (higher is
   * faster; it falls when the CPU is shared), so a low score can be told from a slow page.
   */
  host: { busy: number | null; steal: number | null; waitedMs: number; benchmarkIndex: number | null };
  /** Lighthouse's simulated CPU slowdown for this run, and the benchmark index read just before it that set it. */
  cpuSlowdown: number;
  calibrationIndex: number;
}

export interface PageResult {
  page: string;
  signedIn: boolean;
  passed: boolean;
  /** Performance at its threshold; for a page whose performance is not enforced yet, reported only. */
  performanceMet: boolean;
  runs: PageRun[];
  best: PageRun;
  /** Attempts where Chromium recorded no usable trace (e.g. NO_NAVSTART on a starved CPU). */
  lostAttempts: string[];
  /** The full Lighthouse result of the best run, for bench/reports. */
  lhr: LighthouseResult;
}

function summarise(
  lhr: LighthouseResult,
  origin: string,
  host: Omit<PageRun['host'], 'benchmarkIndex'>,
  calibration: { cpuSlowdown: number; calibrationIndex: number },
): PageRun {
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const requests = (lhr.audits['network-requests']?.details as { items?: { url: string }[] } | undefined)?.items ?? [];
  const foreign = [
    ...new Set(requests.map((r) => r.url).filter((u) => /^https?:/.test(u) && new URL(u).origin !== origin)),
  ];
  const failedAudits = Object.values(lhr.audits)
    .filter(
      (a) =>
        a.score !== null &&
        a.score < 0.9 &&
        a.scoreDisplayMode !== 'informative' &&
        a.scoreDisplayMode !== 'notApplicable' &&
        a.scoreDisplayMode !== 'manual',
    )
    .map((a) => ({ id: a.id, title: a.title, score: a.score }));
  return {
    performance: lhr.categories.performance?.score ?? 0,
    accessibility: lhr.categories.accessibility?.score ?? 0,
    metrics: {
      fcpMs: Math.round(numeric('first-contentful-paint')),
      lcpMs: Math.round(numeric('largest-contentful-paint')),
      tbtMs: Math.round(numeric('total-blocking-time')),
      cls: Number(numeric('cumulative-layout-shift').toFixed(3)),
      speedIndexMs: Math.round(numeric('speed-index')),
    },
    foreignRequests: foreign,
    failedAudits,
    host: { ...host, benchmarkIndex: lhr.environment?.benchmarkIndex ?? null },
    ...calibration,
  };
}

const percent = (share: number | null) => (share === null ? '?' : `${Math.round(share * 100)}%`);
const describeHost = (host: PageRun['host']) =>
  `host ${percent(host.busy)} busy, ${percent(host.steal)} stolen` +
  `${
    host.waitedMs > 1500 ? ` after ${(host.waitedMs / 1000).toFixed(0)} s waiting for ` + `quiet` : ''
  }; benchmark index ${host.benchmarkIndex === null ? '?' : Math.round(host.benchmarkIndex)}`;

/** A signed-in page that lost its session lands on /login: that run would measure the wrong page. */
function checkShownSignedIn(lhr: LighthouseResult, page: string, data: string) {
  const landed = new URL(lhr.finalDisplayedUrl).pathname;
  if (landed !== page)
    throw new Error(`Lighthouse's run of ${page} ended on ${landed}: the browser's session was lost`);
  const requests =
    (lhr.audits['network-requests']?.details as { items?: { url: string; statusCode: number }[] } | undefined)?.items ??
    [];
  const answered = requests.filter((r) => new URL(r.url).pathname === data).map((r) => r.statusCode);
  if (!answered.includes(200))
    throw new Error(
      `Lighthouse's run of ` +
        `${page} got no 200 from ${data} (${answered.join(', ') || 'not requested'}): not signed in, or no data`,
    );
}

const meets = (run: PageRun) =>
  run.performance >= THRESHOLDS.performance &&
  run.accessibility >= THRESHOLDS.accessibility &&
  run.foreignRequests.length === 0;
const meetsEnforced = (run: PageRun, performanceEnforced: boolean) =>
  performanceEnforced ? meets(run) : run.accessibility >= THRESHOLDS.accessibility && run.foreignRequests.length === 0;

/**
 * Audits each page in one headless Debian Chromium; a fresh page load (cold cache) per run.
 * The signed-in pages come after the family has logged in in that browser: Lighthouse's runs
 * clear its caches but not its cookies or localStorage (clearStorageTypes' defaults), so each
 * run is a returning family's cold load. `everyRun` makes all MAX_RUNS runs even after a pass,
 * to measure the spread.
 */
export async function auditPages(
  baseUrl: string,
  family: Family,
  { everyRun = false, log = console.log }: { everyRun?: boolean; log?: (line: string) => void } = {},
): Promise<PageResult[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
    logLevel: 'error',
  });
  let calibrator: Browser | undefined;
  try {
    const results: PageResult[] = [];
    let quietBudgetMs = QUIET_WAIT_BUDGET_MS;
    let signedIn = false;
    // Lighthouse reads the host's speed as a run begins, too late for that run's settings: its own
    // benchmark is run in a browser of our own just before (a shared host's speed changes from one
    // run to the next, 930 to 1,900 seen here).
    calibrator = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
    const calibrationPage = await calibrator.newPage();
    for (const { page, signedIn: needsSession, data, performanceEnforced } of LIGHTHOUSE_PAGES) {
      if (needsSession && !signedIn) {
        // Playwright only for the login, and gone again before Lighthouse's runs (it attaches to every tab).
        const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
        try {
          await signInBrowser(browser, baseUrl, family);
        } finally {
          await browser.close();
        }
        signedIn = true;
      }
      const runs: { run: PageRun; lhr: LighthouseResult }[] = [];
      const problems: string[] = [];
      // A page whose performance is not enforced yet stops at its second run (a best of two, in CI's time).
      const maxRuns = everyRun || performanceEnforced ? MAX_RUNS : 2;
      while (runs.length + problems.length < maxRuns && (everyRun || !runs.some((r) => meets(r.run)))) {
        const quiet = await waitForQuietHost({ maxWaitMs: quietBudgetMs });
        quietBudgetMs = Math.max(0, quietBudgetMs - quiet.waitedMs);
        const calibrationIndex = await benchmarkIndex(calibrationPage);
        const cpuSlowdown = calibratedCpuSlowdown(calibrationIndex);
        const result = await lighthouse(`${baseUrl}${page}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
          throttling: { cpuSlowdownMultiplier: cpuSlowdown },
        });
        // A trace Chromium failed to record (e.g. NO_NAVSTART on a starved CPU) is a lost attempt, not a score.
        const problem = !result ? 'no result' : result.lhr.runtimeError?.message;
        if (problem || !result) {
          problems.push(problem ?? 'no result');
          log(`  ${page} attempt ${runs.length + problems.length}: Lighthouse could not measure the page (${problem})`);
          continue;
        }
        if (data) checkShownSignedIn(result.lhr, page, data);
        const run = summarise(
          result.lhr,
          new URL(baseUrl).origin,
          {
            busy: quiet.sample?.busy ?? null,
            steal: quiet.sample?.steal ?? null,
            waitedMs: quiet.waitedMs,
          },
          { cpuSlowdown, calibrationIndex },
        );
        runs.push({ run, lhr: result.lhr });
        log(
          `  ${page} run ${runs.length}: performance ${Math.round(run.performance * 100)}, accessibility ` +
            (`${Math.round(run.accessibility * 100)} (FCP ${run.metrics.fcpMs} ms, LCP ${run.metrics.lcpMs} ms, TBT ` +
              `${run.metrics.tbtMs} ms, CLS ${run.metrics.cls}; CPU ${run.cpuSlowdown}x slower at index ` +
              `${run.calibrationIndex}; ` +
              `${describeHost(run.host)})`),
        );
      }
      if (runs.length === 0)
        throw new Error(`Lighthouse could not measure ${page} in ${MAX_RUNS} attempts: ${problems.join('; ')}`);
      const best = runs.reduce((a, b) =>
        (meets(b.run) && !meets(a.run)) ||
        b.run.performance + b.run.accessibility > a.run.performance + a.run.accessibility
          ? b
          : a,
      );
      results.push({
        page,
        signedIn: needsSession,
        passed: meetsEnforced(best.run, performanceEnforced),
        performanceMet: best.run.performance >= THRESHOLDS.performance,
        runs: runs.map((r) => r.run),
        best: best.run,
        lostAttempts: problems,
        lhr: best.lhr,
      });
    }
    return results;
  } finally {
    await calibrator?.close();
    chrome.kill();
  }
}
