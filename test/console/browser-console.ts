// A console started for one test worker's task queue only (so runs of other tests never show up in
// it), with a fresh browser context whose page errors fail the test.
import type { Browser, Page } from 'playwright-core';
import { consoleOptions } from '../../src/console/console-options';
import { startConsole, type RunningConsole } from '../../src/console/start-console';
import type { RunHarness } from '../support/agent-run-harness';
import { expectNoPageErrors, pageErrors } from './browser';

export async function withBrowserConsole<T>(harness: RunHarness, browser: Browser, token: string, body: (console: RunningConsole, page: Page) => Promise<T>): Promise<T> {
  const options = consoleOptions({ port: 0, token, localUser: 'alice', taskQueue: harness.taskQueue, filter: `TaskQueue = '${harness.taskQueue}'`, workspace: harness.workspace, pollMs: 250 }, {});
  const running = await startConsole(options, { client: harness.client });
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = pageErrors(page);
  try {
    const result = await body(running, page);
    expectNoPageErrors(errors);
    return result;
  } finally {
    await context.close();
    await running.close();
  }
}
