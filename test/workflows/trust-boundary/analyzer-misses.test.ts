// The analyzer side of issue 30, end to end: calls the analyzer used to read as harmless under an
// allow rule now park for a person, on a real worker with the real bwrap sandbox and bash, in a run
// that has `network: true`. The canary is a TCP listener on loopback that each call's hidden program
// would connect to. (The containment side, which holds even when the analyzer misreads a call, is
// contained-calls.test.ts.) And an "always" for `git status 2>/dev/null` is not remembered as writing.
import { createServer, type Server } from 'node:net';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ToolApproval } from '../../../src/contract/approval-rules';
import { approvalSignal, statusQuery } from '../../../src/contract/agent-run-api';
import { preferencesWorkflowId } from '../../../src/core/approvals/preference-messages';
import { readPreferences } from '../../../src/runtime/approvals/read-preferences';
import { toolResultsIn, waitFor, waitForApprovals, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';

const done = reply(toolCall('complete_task', { summary: 'done', status: 'success' }));
const allow = (...commands: string[]): ToolApproval => ({ alwaysApproved: commands.map((command) => ({ tool: 'shell', command })) });

/** A loopback listener that counts who connects. */
interface Canary {
  port: number;
  connections: number;
  close(): Promise<void>;
}

async function listen(): Promise<Canary> {
  const sockets = new Set<import('node:net').Socket>();
  const canary = { port: 0, connections: 0 } as Canary;
  const server: Server = createServer((socket) => {
    canary.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.end('canary\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  canary.port = (server.address() as import('node:net').AddressInfo).port;
  canary.close = () => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return canary;
}

/** The hidden program: bash saying it ran, then trying the canary. */
const probe = (port: number) => `echo HIDDEN-RAN; : < /dev/tcp/127.0.0.1/${port} && echo REACHED || echo BLOCKED`;

/** Each call as the model would write it, under the allow rules that used to let it through unseen. */
const CALLS: Array<{ name: string; rules: ToolApproval; command: (port: number) => string }> = [
  { name: 'git grep -O', rules: allow('git grep *'), command: (port) => `git grep --no-index -O'bash -c "${probe(port)}"' -e hello` },
  { name: 'git grep --open-files-in-pager', rules: allow('git grep *'), command: (port) => `git grep --no-index --open='bash -c "${probe(port)}"' -e hello` },
  { name: 'printf -v BASH_CMDS', rules: allow('printf *', 'cat *'), command: (port) => `printf -v 'BASH_CMDS[cat]' %s /bin/bash; cat -c '${probe(port)}'` },
  { name: 'read BASH_CMDS', rules: allow('read *', 'cat *'), command: (port) => `read 'BASH_CMDS[cat]' <<< /bin/bash; cat -c '${probe(port)}'` },
  { name: "sed's e command", rules: allow('sed *'), command: (port) => `sed -n "1e bash -c '${probe(port)}'" notes.txt` },
  { name: "awk's system()", rules: allow('awk *'), command: (port) => `awk 'BEGIN { system("bash -c \\"${probe(port)}\\"") }'` },
  { name: 'tar --checkpoint-action=exec', rules: allow('tar *'), command: (port) => `tar --checkpoint=1 --checkpoint-action=exec='bash -c "${probe(port)}"' -cf /dev/null notes.txt` },
];

describe('analyzer misses of issue 30, through a real run', () => {
  const bed = useAgentTestbed({ env: { AGENT_SANDBOX: 'bwrap' } });
  const fake = bed.fake;
  let canary: Canary;

  beforeAll(async () => {
    canary = await listen();
  });
  afterAll(() => canary.close());
  beforeEach(() => {
    canary.connections = 0;
  });

  it.each(CALLS.map((call) => [call.name, call] as const))('%s: parks for a person under its allow rule, and nothing reaches the listener', async (_name, call) => {
    const task = uniqueId('analyzer-miss');
    fake.script(task, [reply(toolCall('shell', { command: call.command(canary.port) }, 'hostile')), done]);
    await withAgentWorker(bed.harness(), async (harness) => {
      await writeFile(path.join(harness.workspace, 'notes.txt'), 'hello\n');
      const handle = await harness.start({ agent: 'general', task, toolApproval: call.rules, network: true });
      const parked = await parksOrEnds(handle);
      // Before the fix the call ran unasked: its result (REACHED) is what the model got back.
      const results = fake.requestsFor(task).slice(1).flatMap((request) => toolResultsIn(request));
      expect(results.map((result) => result.content).join('\n')).not.toContain('HIDDEN-RAN');
      expect(parked, 'the call ran without a person').toBe(true);
      const status = await handle.query(statusQuery);
      expect(status.pendingApprovals.map((p) => p.callId)).toEqual(['hostile']);
      expect(status.pendingApprovals[0]!.reason).toContain('not fully understood');
      await handle.signal(approvalSignal, { callId: 'hostile', decision: 'reject', approver: 'ann' });
      await handle.result();
    });
    expect(canary.connections).toBe(0);
  });

  it('remembers an "always" for git status 2>/dev/null as read-only, not as writing', async () => {
    const task = uniqueId('devnull-always');
    const person = uniqueId('person');
    fake.script(task, [reply(toolCall('shell', { command: 'git status 2>/dev/null' }, 'status')), done]);
    await withAgentWorker(bed.harness(), async (harness) => {
      try {
        const handle = await harness.start({ agent: 'general', task, user: person });
        await waitForApprovals(handle);
        await handle.signal(approvalSignal, { callId: 'status', decision: 'approve_always', approver: person });
        await handle.result();
        const stored = await waitFor(async () => {
          const rules = await readPreferences(harness.client, person);
          return rules.length === 1 ? rules : undefined;
        }, 'the choice in the store');
        expect(stored.map((rule) => [rule.match.kind === 'command' ? rule.match.pattern.pattern : rule.match.kind, rule.writes === true])).toEqual([['git status', false]]);
      } finally {
        await harness.client.workflow.getHandle(preferencesWorkflowId(person)).terminate('test cleanup').catch(() => undefined);
      }
    });
  });
});

/** True once the run parks on an approval; false when it ends first (the call ran unasked). */
async function parksOrEnds(handle: WorkflowHandle): Promise<boolean> {
  return waitFor(async () => {
    const status = await handle.query(statusQuery).catch(() => undefined);
    if ((status?.pendingApprovals.length ?? 0) > 0) return true;
    const { status: state } = await handle.describe();
    return state.name === 'RUNNING' ? undefined : false;
  }, 'the run to park or end', 60_000);
}
