// A schedule made by startSchedule is on the Temporal Web UI's Schedules page: a dev server with its
// UI, and Debian's Chromium reading the page as a person would.
import type { Browser } from 'playwright-core';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startDevServer, type DevServer } from '../../scripts/temporal-dev-server';
import { startSchedule } from '../../src/client/schedules';
import { uniqueId } from '../support/temporal';
import { launchChromium } from '../console/browser';

describe('scheduled runs in the Temporal Web UI', () => {
  let server: DevServer;
  let uiPort: number;
  let browser: Browser;
  beforeAll(async () => {
    uiPort = await freePort();
    [server, browser] = await Promise.all([startDevServer({ uiPort }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the schedule on the Schedules page, and its page names agentRun and the cron\'s time zone', async () => {
    const connection = await Connection.connect({ address: server.address });
    const name = uniqueId('ui-weekly-triage');
    try {
      const client = new Client({ connection });
      await startSchedule(client, { name, cron: '0 9 * * 1', timezone: 'Europe/Berlin', input: { agent: 'general', task: 'Triage the new issues' }, taskQueue: 'agents', checkAgent: false });
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${uiPort}/namespaces/default/schedules`, { waitUntil: 'domcontentloaded' });
      await page.getByText(name).first().waitFor({ timeout: 60_000 });
      await page.goto(`http://127.0.0.1:${uiPort}/namespaces/default/schedules/${name}`, { waitUntil: 'domcontentloaded' });
      await page.getByText('agentRun').first().waitFor({ timeout: 60_000 });
      expect(await page.getByText('Europe/Berlin').count()).toBeGreaterThan(0);
    } finally {
      await connection.close();
    }
  });
});
