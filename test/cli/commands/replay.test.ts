// `agentctl replay` through the real binary (issue 35): the bulk mode over 20 recorded runs with its
// progress and summary, an export replayed from its file, and the bad input it refuses before
// anything starts (an unknown or still-working run, an agent file that does not parse, a model
// without a price).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentctl } from '../../client/agentctl-process';
import { waitFor, waitForPhase, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, text, toolCall } from '../../support/fake-anthropic';
import { newClient, temporalAddress, uniqueId } from '../../support/temporal';
import { listRuns } from '../../../src/client/replay/replay-bulk';

const bed = useAgentTestbed();
const fake = bed.fake;
const complete = (summary = 'done') => reply(toolCall('complete_task', { summary, status: 'success' }));

function agentFile(name: string, prompt: string): string {
  return ['agents:', `  - name: ${name}`, '    description: Lists files.', '    modelTier: fast', '    maxIterations: 5', '    tools: [list_files, write_file]', `    systemPrompt: ${JSON.stringify(prompt)}`, ''].join('\n');
}

describe('agentctl replay', () => {
  let dir: string;
  let workspace: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'replay-cli-'));
    workspace = await mkdtemp(path.join(tmpdir(), 'replay-cli-ws-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(workspace, { recursive: true, force: true });
  });
  const cliEnv = (config: string) => ({ TEMPORAL_ADDRESS: temporalAddress(), ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.baseUrl, AGENT_CONFIG: config, AGENT_WORKSPACE: workspace });

  it('replays the 20 runs a query finds, with progress while it runs and a summary', async () => {
    const agent = `bulk${uniqueId('').replace(/-/g, '')}`;
    const [usual, changed] = [path.join(dir, `${agent}.yaml`), path.join(dir, `${agent}-changed.yaml`)];
    await writeFile(usual, agentFile(agent, 'You list files.'));
    await writeFile(changed, agentFile(agent, 'You list files, briefly.'));
    // 15 runs under the agent file the replay uses, 5 under an earlier prompt: those 5 diverge.
    const record = async (config: string, count: number) =>
      withAgentWorker({ ...bed.harness(), env: { AGENT_CONFIG: config } }, async ({ start }) => {
        const runs = await Promise.all(
          Array.from({ length: count }, async (_, i) => {
            const task = uniqueId(`${agent}-${i}`);
            fake.script(task, [reply(text('Looking.'), toolCall('list_files', { path: '.' })), complete(`listed ${i}`)]);
            return start({ agent, task });
          }),
        );
        await Promise.all(runs.map((run) => run.result()));
      });
    await record(usual, 15);
    await record(changed, 5);
    const query = `AgentName = '${agent}'`;
    await waitFor(async () => ((await agentctl(['list', '--agent', agent, '--limit', '100', '--json'], cliEnv(usual))).stdout.match(/"workflowId"/g)?.length === 20 ? true : undefined), 'the 20 runs to be listed', 60_000);
    const requests = fake.requests.length;

    const bulk = await agentctl(['replay', '--query', query, '--limit', '25', '--concurrency', '4', '--json'], cliEnv(usual));
    expect(bulk.stderr.split('\n').filter((line) => /^\[\d+\/20\] /.test(line))).toHaveLength(20);
    const report = JSON.parse(bulk.stdout) as { runs: { report?: { diverged: boolean } }[]; summary: Record<string, unknown> };
    expect(report.summary).toMatchObject({ replayed: 20, notReplayed: 0, diverged: 5, byKind: { model_request: 5, tool_call: 0, decision: 0, completion: 0 } });
    expect(report.runs).toHaveLength(20);
    expect(bulk.code).toBe(3);
    expect(fake.requests.length).toBe(requests);
    // The shadows are runs of the same agent too (the Web UI shows them); a second pass does not replay them.
    await waitFor(async () => ((await agentctl(['list', '--agent', agent, '--limit', '100', '--json'], cliEnv(usual))).stdout.match(/"workflowId"/g)?.length === 40 ? true : undefined), 'the shadows to be listed', 60_000);
    const client = await newClient();
    const again = await listRuns(client, query, 100).finally(() => client.connection.close());
    expect(again).toHaveLength(20);
    expect(again.filter((id) => id.startsWith('shadow-'))).toEqual([]);
  }, 600_000);

  it('exports a run to a file that replays the same, and refuses what it cannot replay', async () => {
    const agent = `once${uniqueId('').replace(/-/g, '')}`;
    const config = path.join(dir, `${agent}.yaml`);
    await writeFile(config, agentFile(agent, 'You list files.'));
    const task = uniqueId('replay-export');
    const working = uniqueId('replay-working');
    let release!: () => void;
    fake.script(task, [reply(toolCall('list_files', { path: '.' })), complete('listed')]);
    fake.script(working, [reply(text('thinking...')).until(new Promise<void>((resolve) => (release = resolve))), complete()]);
    await withAgentWorker({ ...bed.harness(), env: { AGENT_CONFIG: config } }, async ({ start }) => {
      const run = await start({ agent, task });
      await run.result();
      const exported = await agentctl(['replay', '--export', run.workflowId], cliEnv(config));
      expect(exported.code).toBe(0);
      const file = path.join(dir, 'run.json');
      await writeFile(file, exported.stdout);
      const fromFile = await agentctl(['replay', '--file', file], cliEnv(config));
      expect(fromFile.stdout).toContain(`Replay of ${run.workflowId}`);
      expect(fromFile.stdout).toMatch(/diverged\s+no/);
      expect(fromFile.code).toBe(0);

      const unknown = await agentctl(['replay', 'no-such-run-x'], cliEnv(config));
      expect([unknown.code, unknown.stderr.trim()]).toEqual([1, 'There is no run no-such-run-x (check the id with agentctl list).']);

      const busy = await start({ agent, task: working });
      await waitForPhase(busy, 'running');
      const still = await agentctl(['replay', busy.workflowId], cliEnv(config));
      expect(still.code).toBe(1);
      expect(still.stderr).toContain(`Run ${busy.workflowId} is still working (phase running); replay it once it has closed or is parked on a person.`);
      release();
      await busy.result();

      const broken = path.join(dir, 'broken.yaml');
      await writeFile(broken, 'agents:\n  - name: [unclosed\n');
      const badFile = await agentctl(['replay', run.workflowId, '--agent-file', broken], cliEnv(config));
      expect(badFile.code).toBe(1);
      expect(badFile.stderr).toMatch(/^The agents to replay with could not be loaded, so nothing was replayed: .*broken\.yaml/);

      const unpriced = await agentctl(['replay', run.workflowId, '--live-model', '--model', 'claude-unpriced-9'], cliEnv(config));
      expect(unpriced.code).toBe(1);
      expect(unpriced.stderr).toContain('No price is known for model claude-unpriced-9 (the live model the shadow would ask)');
      expect(unpriced.stderr).toContain('AGENT_MODEL_PRICES_FILE');

      const usage = await agentctl(['replay', run.workflowId, '--decide', 'maybe'], cliEnv(config));
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('--decide must be one of reject, approve, stop');
    });
  }, 600_000);
});
