// The Temporal Web UI, in a real browser, shows an encrypted run decoded through the codec server:
// a dev server with its UI pointed at `--ui-codec-endpoint`, a worker with AGENT_ENCRYPTION_KEY, and
// headless Chromium (Debian's `chromium`, driven by playwright-core) reading the run's page.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startDevServer, type DevServer } from '../../../scripts/temporal-dev-server';
import { AesGcmPayloadCodec } from '../../../src/runtime/codec/aes-gcm-codec';
import { newCodecToken, startCodecServer, type CodecServer } from '../../../src/runtime/codec/codec-server';
import { encryptionKeysFromEnv } from '../../../src/runtime/codec/encryption-keys';
import { startRun } from '../../../src/client/start-run';
import { createAgentWorker } from '../../../src/runtime/worker-setup/create-agent-worker';
import { quietTemporalLogs, tempWorkspace } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--host-resolver-rules=MAP rebound.test 127.0.0.1', '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const KEY = `ui1:${randomBytes(32).toString('base64')}`;

describe('the Temporal Web UI with the codec server', () => {
  const bed = useAgentTestbed();
  let server: DevServer;
  let codec: CodecServer;
  let uiPort: number;

  beforeAll(async () => {
    uiPort = await freePort();
    codec = await startCodecServer({
      codec: new AesGcmPayloadCodec(encryptionKeysFromEnv({ AGENT_ENCRYPTION_KEY: KEY })!),
      port: 0,
      origins: [`http://127.0.0.1:${uiPort}`, `http://localhost:${uiPort}`],
      token: newCodecToken(),
    });
    // As `npm start` does: the UI cannot send a header of ours, so its endpoint carries the token as its path.
    server = await startDevServer({ uiPort, uiCodecEndpoint: codec.uiEndpoint });
  });
  afterAll(async () => {
    await server?.stop();
    await codec?.close();
  });

  it('shows the decoded result of an encrypted run on its page', async () => {
    expect(existsSync(CHROMIUM), `Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`).toBe(true);
    quietTemporalLogs();
    const secret = `DECODED-IN-THE-UI-${uniqueId('s')}`;
    const task = `read the secret ${uniqueId('t')}`;
    bed.fake.script(task, [reply(toolCall('read_file', { path: 'secret.txt' })), reply(toolCall('complete_task', { summary: `It says ${secret}`, status: 'success' }))]);
    const workspace = await tempWorkspace();
    await writeFile(path.join(workspace, 'secret.txt'), secret);
    const taskQueue = uniqueId('ui-q');
    const worker = await createAgentWorker({
      auditLog: false,
      address: server.address,
      taskQueue,
      workspaceRoot: workspace,
      env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: bed.fake.baseUrl, AGENT_ENCRYPTION_KEY: KEY },
      workflowBundle: bed.harness().workflowBundle,
    });
    const profile = await mkdtemp(path.join(tmpdir(), 'codec-ui-chromium-'));
    try {
      const handle = await worker.worker.runUntil(async () => {
        const h = await startRun(worker.client, { agent: 'general', task }, { taskQueue, workflowId: uniqueId('sealed') });
        await h.result();
        return h;
      });
      const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
      try {
        const page = browser.pages()[0] ?? (await browser.newPage());
        const decodes: number[] = [];
        page.on('response', (r) => {
          if (r.url().startsWith(`${codec.uiEndpoint}/decode`)) decodes.push(r.status());
        });
        await page.goto(`http://127.0.0.1:${uiPort}/namespaces/default/workflows/${handle.workflowId}`, { waitUntil: 'domcontentloaded' });
        // The result panel shows the run's result, decoded by the codec server.
        await page.getByText(secret).first().waitFor({ timeout: 60_000 });
        expect(decodes.length).toBeGreaterThan(0);
        expect(decodes.every((status) => status === 200)).toBe(true);

        // A DNS-rebound page: rebound.test resolves to loopback, so the page and the codec server are
        // same-origin to the browser, and it knows the token. The Host check refuses it all the same.
        const codecPort = new URL(codec.url).port;
        const tokenPath = new URL(codec.uiEndpoint).pathname;
        const rebound = await browser.newPage();
        const landing = await rebound.goto(`http://rebound.test:${codecPort}/`);
        expect(landing?.status()).toBe(421);
        const reboundStatus = await rebound.evaluate(
          async (p) => (await fetch(`${p}/decode`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"payloads":[]}' })).status,
          tokenPath,
        );
        expect(reboundStatus).toBe(421);
        // A page of another origin (the rebound one, calling the real name): refused by Origin, so the
        // browser gets no answer it may read.
        const foreign = await rebound.evaluate(
          async (url) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"payloads":[]}' }).then((r) => `status ${r.status}`, (e: Error) => `blocked: ${e.message}`),
          `${codec.uiEndpoint}/decode`,
        );
        expect(foreign).toMatch(/^blocked/);
      } catch (error) {
        await browser.pages()[0]?.screenshot({ path: path.join(tmpdir(), 'web-ui-codec.failed.png'), fullPage: true }).catch(() => undefined);
        throw error;
      } finally {
        await browser.close();
      }
    } finally {
      await worker.close();
      await rm(profile, { recursive: true, force: true });
    }
  });
});
