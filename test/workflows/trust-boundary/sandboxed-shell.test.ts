// The shell tool behind the trust boundary, on a real worker with the real bwrap: what a command can
// see (no secrets, no network, no other run's files) and what it can change (only its workspace).
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { builtinAgents } from '../../../src/runtime/agents/builtin-agents';
import { approvalSignal, statusQuery } from '../../../src/contract/agent-run-api';
import { toolResultsIn, waitForApprovals, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../../support/temporal';

const shell = (command: string) => reply(toolCall('shell', { command }));
const done = reply(toolCall('complete_task', { summary: 'done', status: 'success' }));
const shellAllowed = { alwaysApproved: ['shell'] };

/** The output the model got back for the run's first tool call. */
function firstOutput(fake: ReturnType<typeof useAgentTestbed>['fake'], task: string): string {
  return toolResultsIn(fake.requestsFor(task)[1])[0]?.content ?? '';
}

describe('the sandboxed shell', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;
  const saved = { ...process.env };
  let listener: net.Server;
  let port: number;

  beforeAll(async () => {
    // The worker process's own secrets: a tool must not see any of them.
    process.env.ANTHROPIC_API_KEY = 'sk-ant-worker-secret';
    process.env.TEMPORAL_API_KEY = 'temporal-worker-secret';
    process.env.SECRET_X = 'not-on-any-list';
    process.env.VISIBLE_X = 'on-the-agent-list';
    listener = net.createServer((socket) => {
      // A probe that gives up first resets the connection: the client's business, not the test's.
      socket.on('error', () => undefined);
      socket.end('hello from the host\n');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    process.env = saved;
    await new Promise((resolve) => listener.close(resolve));
  });

  it('gives commands a clean environment: no worker secrets, only PATH, HOME, LANG, TERM, the runtime settings and what the agent allows', async () => {
    const task = uniqueId('env');
    fake.script(task, [shell('env; echo HOME=$HOME; ls -A "$HOME" | wc -l'), done]);
    const general = builtinAgents.find((a) => a.name === 'general')!;
    const agent: AgentDefinitionInput = { ...general, name: 'envy', env: ['VISIBLE_X'] };
    await withAgentWorker({ ...bed.harness(), agents: [agent] }, async ({ start, workspace }) => {
      await (await start({ agent: 'envy', task, toolApproval: shellAllowed })).result();
      const output = firstOutput(fake, task);
      expect(output).toContain('exit code 0');
      for (const secret of ['sk-ant-worker-secret', 'temporal-worker-secret', 'not-on-any-list', 'ANTHROPIC', 'TEMPORAL_']) expect(output).not.toContain(secret);
      expect(output).toContain('VISIBLE_X=on-the-agent-list');
      // HOME is the call's own fresh, empty folder, never the workspace.
      const home = /^HOME=(.*)$/m.exec(output)?.[1] ?? '';
      expect(home).toMatch(/\/agent-home-[^/]+$/);
      expect(home).not.toContain(workspace);
      expect(output.trim().split('\n').at(-1)).toBe('0');
      // Whatever else is set was set by the shell itself (PWD, SHLVL, _), not passed in.
      const names = output.split('\n').filter((l) => /^[A-Za-z_]+=/.test(l)).map((l) => l.split('=')[0]!);
      const runtime = ['GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_GLOBAL', 'GIT_TERMINAL_PROMPT', 'GIT_PAGER', 'PAGER', 'PYTHONNOUSERSITE', 'GIT_CONFIG_COUNT'];
      for (const name of names) expect([...runtime, 'PATH', 'HOME', 'LANG', 'TERM', 'VISIBLE_X', 'PWD', 'OLDPWD', 'SHLVL', '_']).toContain(name.replace(/^GIT_CONFIG_(KEY|VALUE)_\d+$/, 'GIT_CONFIG_COUNT'));
      expect(names).toEqual(expect.arrayContaining(['PATH', 'HOME', 'LANG', 'TERM', 'VISIBLE_X', ...runtime]));
    });
  });

  it('has no network (so neither a host service nor the Temporal frontend), unless the run allows it and the rule or a person grants it', async () => {
    // `:` with its input redirected from /dev/tcp opens a connection and closes it at once.
    const probe = (p: number) => `bash -c ': < /dev/tcp/127.0.0.1/${p} && echo REACHED || echo BLOCKED' 2>&1`;
    const temporalPort = Number(temporalAddress().split(':').at(-1));
    const [closed, frontend, ungranted] = [uniqueId('no-net'), uniqueId('no-temporal'), uniqueId('rule-no-grant')];
    const [granted, approved, ceiling] = [uniqueId('rule-grant'), uniqueId('person'), uniqueId('run-ceiling')];
    for (const task of [closed, ungranted, granted, approved, ceiling]) fake.script(task, [shell(probe(port)), done]);
    fake.script(frontend, [shell(probe(temporalPort)), done]);
    const networkRule = { alwaysApproved: [{ tool: 'shell', network: true }] };
    await withAgentWorker(bed.harness(), async ({ start }) => {
      await (await start({ agent: 'general', task: closed, toolApproval: shellAllowed })).result();
      await (await start({ agent: 'general', task: frontend, toolApproval: networkRule })).result();
      // The run allows the network, but the rule that let the call run unseen does not grant it.
      await (await start({ agent: 'general', task: ungranted, toolApproval: shellAllowed, network: true })).result();
      await (await start({ agent: 'general', task: granted, toolApproval: networkRule, network: true })).result();
      // The rule grants it, but the run does not allow it: the run's setting is the ceiling.
      await (await start({ agent: 'general', task: ceiling, toolApproval: networkRule })).result();
      // A person's approval keeps today's behaviour: the run's network.
      const handle = await start({ agent: 'general', task: approved, network: true });
      const parked = await waitForApprovals(handle);
      await handle.signal(approvalSignal, { callId: parked.pendingApprovals[0]!.callId, decision: 'approve' });
      await handle.result();
    });
    expect(firstOutput(fake, closed)).toContain('BLOCKED');
    expect(firstOutput(fake, frontend)).toContain('BLOCKED');
    expect(firstOutput(fake, ungranted)).toContain('BLOCKED');
    expect(firstOutput(fake, granted)).toContain('REACHED');
    expect(firstOutput(fake, ceiling)).toContain('BLOCKED');
    expect(firstOutput(fake, approved)).toContain('REACHED');
  });

  it('can write only inside the workspace: outside fails, /tmp is private, and a person is asked first', async () => {
    const task = uniqueId('write');
    const marker = uniqueId('outside');
    fake.script(task, [shell(`echo in > inside.txt && echo x > /tmp/${marker}; echo x > ../${marker}; echo x > /usr/${marker}; echo rc=$?`), done]);
    await withAgentWorker(bed.harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task, toolApproval: shellAllowed });
      // Even with shell allowed, a write outside the workspace waits for a person.
      const status = await waitForApprovals(handle);
      expect(status.pendingApprovals[0]!.reason).toMatch(/writes outside the workspace/);
      await handle.signal(approvalSignal, { callId: status.pendingApprovals[0]!.callId, decision: 'approve' });
      await handle.result();
      expect(await readFile(path.join(workspace, 'inside.txt'), 'utf8')).toBe('in\n');
      expect(existsSync(path.join('/tmp', marker))).toBe(false);
      expect(existsSync(path.join(workspace, '..', marker))).toBe(false);
      expect(existsSync(path.join('/usr', marker))).toBe(false);
    });
    // The system is read-only; the folder above the workspace and /tmp are private to the command.
    expect(firstOutput(fake, task)).toMatch(/Read-only file system|Permission denied/);
    expect(firstOutput(fake, task)).toContain('rc=');
  });

  it('gives per-run agents a folder of their own: no run sees another run\'s files', async () => {
    const [one, two, peek] = [uniqueId('run-one'), uniqueId('run-two'), uniqueId('peek')];
    const general = builtinAgents.find((a) => a.name === 'general')!;
    const isolated: AgentDefinitionInput = { ...general, name: 'isolated', workspace: 'per-run' };
    fake.script(one, [reply(toolCall('write_file', { path: 'secret.txt', content: 'run one only' })), done]);
    fake.script(two, [shell('ls -a; cat ../*/secret.txt; ls ..'), reply(toolCall('read_file', { path: '../secret.txt' })), done]);
    fake.script(peek, [reply(toolCall('list_files', { path: 'runs' })), done]);
    await withAgentWorker({ ...bed.harness(), agents: [isolated, general] }, async ({ start, workspace }) => {
      const first = await start({ agent: 'isolated', task: one, toolApproval: { alwaysApproved: [{ tool: 'write_file', writes: true }] } });
      await first.result();
      expect(await readFile(path.join(workspace, 'runs', first.workflowId, 'secret.txt'), 'utf8')).toBe('run one only');
      await (await start({ agent: 'isolated', task: two, toolApproval: shellAllowed })).result();
      // A shared-workspace run does not see the per-run folders either.
      await mkdir(path.join(workspace, 'runs', 'x'), { recursive: true });
      await writeFile(path.join(workspace, 'runs', 'x', 'y.txt'), 'y');
      await (await start({ agent: 'general', task: peek })).result();
    });
    expect(firstOutput(fake, two)).not.toContain('run one only');
    expect(toolResultsIn(fake.requestsFor(two)[2])[0]).toMatchObject({ is_error: true });
    expect(firstOutput(fake, peek)).toMatch(/belongs to another run's workspace/);
  });

  it('reports in status that the run is sandboxed, and that it is not when the worker runs without a sandbox', async () => {
    const [boxed, open] = [uniqueId('boxed'), uniqueId('unboxed')];
    fake.script(boxed, [done]);
    fake.script(open, [done]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task: boxed });
      await handle.result();
      expect((await handle.query(statusQuery)).sandboxed).toBe(true);
    });
    await withAgentWorker({ ...bed.harness(), env: { AGENT_SANDBOX: 'none' } }, async ({ start }) => {
      const handle = await start({ agent: 'general', task: open });
      await handle.result();
      expect((await handle.query(statusQuery)).sandboxed).toBe(false);
    });
  });
});
