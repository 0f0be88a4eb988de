// `agentctl audit prove`, run as a real process on a real signed run: the table a person reads, the
// JSON a script reads, the exit codes, the histories given as files or fetched from the server.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/cli';
import { withAgentWorker } from '../../support/agent-run-harness';
import { useFakeModel } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../../support/temporal';
import { agentctl } from '../../client/agentctl-process';
import { approve, createApprover, editLog, exportHistories, type Approver } from '../../runtime/audit/prove/proof-fixtures';

const NO_SERVER = { TEMPORAL_ADDRESS: '127.0.0.1:1' };

/** `agentctl <argv>` in this process (a process start costs seconds): its exit code, stdout and stderr. */
async function inProcess(argv: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  try {
    return { code: await main(argv), stdout: out.join(''), stderr: err.join('') };
  } finally {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  }
}

describe('agentctl audit prove', () => {
  const bed = useFakeModel();
  let dir: string;
  let alice: Approver;
  let workflowId: string;
  let histories: string[];
  let log: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'audit-prove-cli-'));
    alice = await createApprover(dir, 'alice');
    log = path.join(dir, 'logs', 'worker.log');
    await mkdir(path.join(dir, 'histories'));
    await withAgentWorker({ ...bed.harness(), auditLog: log, env: { AGENT_APPROVERS_FILE: alice.registry } }, async ({ start, client }) => {
      const task = uniqueId('prove-cli');
      bed.fake.script(task, [reply(toolCall('shell', { command: 'echo one > one.txt' })), reply(toolCall('complete_task', { summary: 'done', status: 'success' }))]);
      const handle = await start({ agent: 'general', task });
      await approve(handle, 'toolu_0_0', { command: 'echo one > one.txt' }, alice);
      expect((await handle.result()).status).toBe('completed');
      workflowId = handle.workflowId;
      histories = await exportHistories(client, workflowId, path.join(dir, 'histories'));
    });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  afterEach(() => vi.restoreAllMocks());

  it('prints the proof as a table and exits 0 on an intact signed run; --json gives { ok, calls, decisions, problems }', async () => {
    const args = ['audit', 'prove', workflowId, '--history', histories[0]!, '--audit-log', log, '--keys', alice.registry];
    const human = await agentctl(args, NO_SERVER);
    expect(human.stderr).toBe('');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^CALL +TOOL +RAN +DECISION +LINE +SIGNED +VERDICT$/m);
    expect(human.stdout).toMatch(/^toolu_0_0 +shell +activity event \d+ +approve by alice \(update\) +worker\.log:1 +valid +ok$/m);
    expect(human.stdout).toContain('PROOF HOLDS: 1 call(s) that could have a side effect, each decided before it was scheduled; 1 decision line(s), each borne out by the history.');
    const json = await agentctl([...args, '--json'], NO_SERVER);
    expect(json.code).toBe(0);
    const proof = JSON.parse(json.stdout);
    expect(proof).toMatchObject({ ok: true, problems: [], calls: [{ callId: 'toolu_0_0', tool: 'shell', signature: 'valid', ok: true }], decisions: [{ callId: 'toolu_0_0', status: 'ran', ok: true }] });
    expect(Object.keys(proof).slice(0, 4)).toEqual(['ok', 'calls', 'decisions', 'problems']);
  });

  it('fetches every link from the server when no --history is given, and takes --history several times', async () => {
    const fetched = await inProcess(['audit', 'prove', workflowId, '--audit-log', log, '--json'], { TEMPORAL_ADDRESS: temporalAddress() });
    expect(fetched.stderr).toBe('');
    expect(JSON.parse(fetched.stdout)).toMatchObject({ ok: true, signatures: { required: true, keys: 'history' } });
    // The same link twice is read once.
    const twice = await inProcess(['audit', 'prove', workflowId, '--history', histories[0]!, '--history', path.dirname(histories[0]!), '--audit-log', log], NO_SERVER);
    expect(twice.code).toBe(0);
  });

  it('exits 1 on a tampered log, naming the call and the kind', async () => {
    const copy = path.join(dir, 'logs', 'removed.log');
    await editLog(log, copy, process.env.AGENT_AUDIT_HEAD_DIR!, (lines) => lines.filter((l) => l.kind !== 'decision'), { rechain: true });
    const result = await agentctl(['audit', 'prove', workflowId, '--history', histories[0]!, '--audit-log', copy], NO_SERVER);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^toolu_0_0 +shell +activity event \d+ +NONE +- +- +PROBLEM$/m);
    expect(result.stdout).toMatch(/^PROOF FAILS: 2 problem\(s\)$/m);
    expect(result.stdout).toMatch(/^ {2}toolu_0_0 {2}missing_decision {2}shell ran \(event \d+\) under approve by alice, and no decision line of this run names toolu_0_0$/m);
    expect(result.stdout).toMatch(/^ {2}toolu_0_0 {2}unlogged_decision /m);
  });

  it('says what is wrong with its input, with exit code 1, and how to call it, with exit code 2', async () => {
    const missing = await inProcess(['audit', 'prove', workflowId, '--history', path.join(dir, 'none.json'), '--audit-log', log], NO_SERVER);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^No history at .*none\.json: export each link with `temporal workflow show/);
    const another = await inProcess(['audit', 'prove', 'some-other-run', '--history', histories[0]!, '--audit-log', log], NO_SERVER);
    expect(another.code).toBe(1);
    expect(another.stderr).toContain(`is the history of workflow ${workflowId}, not of some-other-run`);
    const usage = await inProcess(['audit', 'prove'], NO_SERVER);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^audit prove takes one workflow id\nUsage: agentctl audit verify/);
    const noValue = await inProcess(['audit', 'prove', workflowId, '--history'], NO_SERVER);
    expect(noValue.code).toBe(2);
    expect(noValue.stderr).toMatch(/^--history names a history file or folder/);
  });
});
