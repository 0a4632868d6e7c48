/**
 * The test runner of every project (vitest.config.ts `runner`): vitest's own, with time limits that
 * hold on a busy shared machine. vitest's fixed timeouts are off (`testTimeout: 0`, `hookTimeout: 0`);
 * in their place each limit is a budget of quiet-machine time (scripts/machine-load.ts), whose clock
 * runs slower as the load rises, so a test that takes 3 s on an idle machine and 30 s at load 20 is
 * not failed for the machine's business, and a test that hangs still fails, naming itself.
 *
 * - A test: `QUIET_TEST_BUDGET_MS` (per project, vitest.config.ts), several times what the slowest
 *   test of the project takes on a quiet machine (docs/testing.md has the figures).
 * - Hooks (`beforeAll` starting servers, ...) have no test around them: when a file makes no progress
 *   (no test starts or ends) for `QUIET_STALL_BUDGET_MS`, the worker prints what it was running and
 *   ends, which vitest reports as a failed file. The waits inside hooks (a server's start-up) carry
 *   budgets of their own, so this only catches a hang.
 */
import { TestRunner as VitestTestRunner, type RunnerTestCase, type RunnerTestFile } from 'vitest';
import { QuietClock, withinBudget } from '../../scripts/machine-load.ts';

type Task = Parameters<VitestTestRunner['onBeforeRunTask']>[0];

const budget = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const TEST_BUDGET_MS = budget('QUIET_TEST_BUDGET_MS', 30_000);
const STALL_BUDGET_MS = budget('QUIET_STALL_BUDGET_MS', 4 * TEST_BUDGET_MS);
const STALL_CHECK_MS = 1_000;

export default class LoadAwareRunner extends VitestTestRunner {
  private progress = new QuietClock(STALL_BUDGET_MS);
  private running = 'collecting the file';
  private stallTimer: NodeJS.Timeout | undefined;

  async runTask(test: RunnerTestCase): Promise<void> {
    const fn = VitestTestRunner.getTestFn(test);
    await withinBudget(
      Promise.resolve(fn()),
      TEST_BUDGET_MS,
      (clock) => `The test ran past its budget of ${clock.describe()}: it hangs, or it does far more work than it should`,
    );
  }

  override async onBeforeRunSuite(suite: Parameters<VitestTestRunner['onBeforeRunSuite']>[0]): Promise<void> {
    if (isFile(suite)) this.watch(suite);
    await super.onBeforeRunSuite(suite);
  }

  override async onBeforeRunTask(test: Task): Promise<void> {
    this.madeProgress(`the test "${test.name}" (or its beforeEach hooks)`);
    await super.onBeforeRunTask(test);
  }

  override onAfterRunTask(test: Task): void {
    this.madeProgress(`the hooks after "${test.name}"`);
    super.onAfterRunTask(test);
  }

  override onAfterRunFiles(): void {
    clearInterval(this.stallTimer);
    super.onAfterRunFiles();
  }

  private madeProgress(now: string) {
    this.progress = new QuietClock(STALL_BUDGET_MS);
    this.running = now;
  }

  private watch(file: RunnerTestFile) {
    clearInterval(this.stallTimer);
    this.madeProgress('the beforeAll hooks');
    this.stallTimer = setInterval(() => {
      if (!this.progress.expired()) return;
      clearInterval(this.stallTimer);
      process.stderr.write(`\n${file.filepath}: no progress for ${this.progress.describe()} while running ${this.running}; ending this worker\n`);
      process.exit(1);
    }, STALL_CHECK_MS);
    this.stallTimer.unref();
  }
}

function isFile(suite: object): suite is RunnerTestFile {
  return 'filepath' in suite && typeof suite.filepath === 'string';
}
