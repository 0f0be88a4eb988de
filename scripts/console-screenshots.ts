// The approval console's part of `npm run screenshots`: the inbox with a parked write_file call (its
// diff against the file an earlier run wrote), the run list, and a finished run's page. Called by
// scripts/screenshots.ts with its worker's client, once its runs exist.
import * as path from 'node:path';
import type { Client } from '@temporalio/client';
import type { BrowserContext, Page } from 'playwright-core';
import { consoleOptions } from '../src/console/console-options';
import { startConsole } from '../src/console/start-console';

interface ConsoleShotsOptions {
  client: Client;
  browser: BrowserContext;
  workspace: string;
  taskQueue: string;
  uiBaseUrl: string;
  outDir: string;
  /** A run parked on an approval, and a finished one, to show. */
  finishedRunId: string;
}

async function save(page: Page, file: string): Promise<void> {
  await page.waitForTimeout(500);
  await page.screenshot({ path: file, fullPage: true });
  process.stdout.write(`Wrote ${path.relative(process.cwd(), file)}\n`);
}

export async function shootConsole(options: ConsoleShotsOptions): Promise<void> {
  const running = await startConsole(
    consoleOptions({ port: 0, localUser: 'alice', taskQueue: options.taskQueue, workspace: options.workspace, uiBaseUrl: options.uiBaseUrl }, {}),
    { client: options.client },
  );
  const page = await options.browser.newPage();
  try {
    await page.goto(`${running.url}login`);
    await save(page, path.join(options.outDir, 'console-login.png'));
    await page.getByLabel('Password or start token').fill(running.token);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.locator('.inbox .card.approval .diff').first().waitFor({ timeout: 30_000 });
    await page.locator('table.runs').waitFor();
    await save(page, path.join(options.outDir, 'console-inbox.png'));
    await page.goto(`${running.url}#/runs/${encodeURIComponent(options.finishedRunId)}`);
    await page.locator('.completion .summary').waitFor({ timeout: 30_000 });
    await save(page, path.join(options.outDir, 'console-run.png'));
  } finally {
    await page.close();
    await running.close();
  }
}
