import { writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FullConfig, FullResult, Reporter, Suite, TestCase } from '@playwright/test/reporter';

const OUT_DIR = fileURLToPath(new URL('../../test-results/e2e', import.meta.url));

/**
 * Prints one line that counts journeys by outcome, so a pass on a retry is never read as a plain
 * pass, and writes the flaky ones to test-results/e2e/flaky.json for the issue tracker.
 */
export default class FlakySummaryReporter implements Reporter {
  private root: Suite | undefined;
  private workers = 0;
  private started = Date.now();

  onBegin(config: FullConfig, suite: Suite): void {
    this.root = suite;
    this.workers = config.workers;
    this.started = Date.now();
  }

  onEnd(result: FullResult): void {
    const tests: TestCase[] = this.root?.allTests() ?? [];
    const ran = tests.filter((t) => t.results.length > 0);
    const count = (outcome: ReturnType<TestCase['outcome']>) => ran.filter((t) => t.outcome() === outcome);
    const flaky = count('flaky');
    const failed = count('unexpected');
    const minutes = ((Date.now() - this.started) / 60_000).toFixed(1);
    console.log(
      `\nE2E summary: ${count('expected').length} passed first time, ${flaky.length} flaky (passed only on retry), ` +
        (`${failed.length} failed, ${count('skipped').length} skipped, ${tests.length - ran.length} did not run; ` +
          `${this.workers} worker(s), ${minutes} min, status ${result.status}`),
    );
    for (const t of flaky) console.log(`  flaky: ${t.titlePath().filter(Boolean).join(' › ')}`);
    mkdirSync(OUT_DIR, { recursive: true });
    writeFileSync(
      `${OUT_DIR}/flaky.json`,
      JSON.stringify({ flaky: flaky.map((t) => t.titlePath().filter(Boolean).join(' › ')) }, null, 2),
    );
  }

  printsToStdio(): boolean {
    return false;
  }
}
