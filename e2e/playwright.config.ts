import { availableParallelism } from 'node:os';
import { defineConfig, devices } from '@playwright/test';
import { E2E_CHARITY } from './helpers/charity';

const PORT = Number(process.env.E2E_PORT ?? 3310);
const BASE_URL = `http://localhost:${PORT}`;
// Another port gets its own data folder, so parallel runs never wipe each other's database.
const DATA_DIR = PORT === 3310 ? '.data/e2e' : `.data/e2e-${PORT}`;
// Specs that load a season into the stack's database (season:load) find it through this.
process.env.E2E_DATA_DIR = DATA_DIR;
/**
 * Each worker drives a Chromium while the API, PostgreSQL and the Stripe sandbox share the same
 * cores, so one worker per two cores (at least one) whatever CI says: 4 workers on 2 cores made
 * journeys wait past their timeouts (decision 0018).
 */
const WORKERS = Number(process.env.E2E_WORKERS) || Math.max(1, Math.floor(availableParallelism() / 2));
/**
 * Journeys that mostly wait on the wall clock (an offer lapsing, a sale opening at the next whole
 * minute) run in a lane of their own beside the others: their minutes of idle waiting overlap the
 * rest of the suite instead of adding to it (decision 0067). They use locations of their own.
 */
const CLOCK_SPECS = /(waitlist|fair-start|sales-opening)\.spec\.ts$/;

/**
 * The whole stack as `npm start` runs it (API serving the built web app, embedded PostgreSQL),
 * on its own port and data folder, wiped at start so every run begins from the seed.
 * The web app must be built first (`npm run test:e2e` does that).
 */
export default defineConfig({
  testDir: './tests',
  outputDir: '../test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // One retry everywhere; a journey that passes only on its retry is flaky: listed by name and
  // counted in the summary line, and it fails the run when E2E_FAIL_ON_FLAKY=1.
  retries: 1,
  failOnFlakyTests: process.env.E2E_FAIL_ON_FLAKY === '1',
  // One more worker than the main lane's, held by the clock lane (which mostly sleeps).
  workers: WORKERS + 1,
  reporter: [
    ['list'],
    ['./helpers/flaky-summary-reporter.ts'],
    ...(process.env.CI ? [['html', { open: 'never', outputFolder: '../playwright-report' }] as const] : []),
  ],
  use: {
    baseURL: BASE_URL,
    locale: 'en-AU',
    timezoneId: 'UTC',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-gpu',
      ],
    },
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: CLOCK_SPECS,
      workers: WORKERS,
      use: { ...devices['Desktop Chrome'], channel: undefined },
    },
    { name: 'clock', testMatch: CLOCK_SPECS, workers: 1, use: { ...devices['Desktop Chrome'], channel: undefined } },
  ],
  webServer: {
    command: `rm -rf ${DATA_DIR} && npm run start -w apps/api`,
    cwd: '..',
    url: `${BASE_URL}/api/v1/ready`,
    timeout: 120_000,
    reuseExistingServer: !process.env.CI,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      DATA_DIR,
      PUBLIC_URL: BASE_URL,
      RATE_LIMIT_MODE: 'off',
      TZ: 'UTC',
      LOG_LEVEL: 'warn',
      // Journeys book days up to two weeks ahead: a fixed six weeks, whatever the date (the demo's own season ends on
      // Christmas Eve).
      DEMO_SEASON_DAYS: '42',
      // The waitlist journey watches an offer lapse (issue 20): 3 minutes instead of 30.
      WAITLIST_OFFER_MINUTES: '3',
      // Overview offers a donation only with a charity named (issue 52).
      CHARITY_NAME: E2E_CHARITY,
    },
  },
});
