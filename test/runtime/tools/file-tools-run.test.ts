// The file tools' boundary through the public run input, on a real Temporal worker whose model is the
// fake Messages API: another run's folder behind a symlink (bypass 7), a hard link to a host file
// (bypass 9), and the two ways a model could wedge the worker (FIFO reads filling libuv's thread pool,
// a catastrophic regular expression blocking the event loop) while a second run goes on.
import { execFileSync } from 'node:child_process';
import { access, link, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { toolResultsIn, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';
import { removeTempDirs, tempDir } from './tool-test-context';

afterAll(removeTempDirs);

const done = reply(toolCall('complete_task', { summary: 'done', status: 'success' }));

describe('file tools in a run', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('cannot read or plant files in another run\'s folder through a symlink, nor read a host file through a hard link (bypasses 7 and 9)', async () => {
    const workspace = await tempDir('agent-ws-');
    const outside = await tempDir('outside-');
    await mkdir(path.join(workspace, 'runs', 'other-run'), { recursive: true });
    await writeFile(path.join(workspace, 'runs', 'other-run', 'secret.txt'), 'OTHER RUN SECRET\n');
    await symlink('runs', path.join(workspace, 'r')); // What `ln -s runs r` in an earlier command leaves.
    await writeFile(path.join(outside, 'host.txt'), 'HOST FILE\n');
    await link(path.join(outside, 'host.txt'), path.join(workspace, 'host-link.txt'));
    const task = uniqueId('shared-escape');
    fake.script(task, [
      reply(toolCall('read_file', { path: 'r/other-run/secret.txt' })),
      reply(toolCall('write_file', { path: 'r/other-run/planted.txt', content: 'PWNED' })),
      reply(toolCall('read_file', { path: 'host-link.txt' })),
      reply(toolCall('write_file', { path: 'host-link.txt', content: 'PWNED' })),
      done,
    ]);
    await withAgentWorker({ ...bed.harness(), workspace }, async ({ start }) => {
      const result = await (await start({ agent: 'general', task, toolApproval: { alwaysApproved: ['write_file'] } })).result();
      expect(result).toMatchObject({ status: 'completed' });
    });
    const results = fake.requestsFor(task).slice(1, 5).map((request) => toolResultsIn(request)[0]);
    expect(results.map((r) => r?.is_error)).toEqual([true, true, true, true]);
    expect(results[0]?.content).toMatch(/another run's workspace/);
    expect(results[2]?.content).toMatch(/has 2 hard links/);
    expect(JSON.stringify(fake.requestsFor(task))).not.toMatch(/OTHER RUN SECRET|HOST FILE/);
    await expect(access(path.join(workspace, 'runs', 'other-run', 'planted.txt'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(path.join(outside, 'host.txt'), 'utf8')).toBe('HOST FILE\n');
  });

  it('lets a second run finish normally while FIFO reads and a catastrophic regular expression are in flight', { timeout: 120_000 }, async () => {
    const workspace = await tempDir('agent-ws-');
    for (let i = 0; i < 4; i++) execFileSync('mkfifo', [path.join(workspace, `pipe-${i}`)]);
    // `^(a+)+$` backtracks exponentially on this line: minutes of event-loop time for a backtracking engine.
    await writeFile(path.join(workspace, 'evil.txt'), `${'a'.repeat(34)}b\n`);
    await writeFile(path.join(workspace, 'notes.txt'), 'the second run reads this\n');
    const [wedger, second] = [uniqueId('wedger'), uniqueId('second')];
    fake.script(wedger, [
      reply(
        ...[0, 1, 2, 3].map((i) => toolCall('read_file', { path: `pipe-${i}` })),
        toolCall('search_files', { query: '^(a+)+$', regex: true }),
      ),
      done,
    ]);
    fake.script(second, [reply(toolCall('read_file', { path: 'notes.txt' })), reply(toolCall('list_files', {})), done]);

    const lag = monitorEventLoopDelay({ resolution: 20 });
    lag.enable();
    const finished: Record<string, number> = {};
    await withAgentWorker({ ...bed.harness(), workspace }, async ({ start }) => {
      const first = await start({ agent: 'reader', task: wedger });
      // The second run starts once the wedging calls reached the worker.
      while (fake.requestsFor(wedger).length < 1) await new Promise((resolve) => setTimeout(resolve, 50));
      const other = await start({ agent: 'reader', task: second });
      await Promise.all([
        first.result().then((r) => ((finished.wedger = Date.now()), r)),
        other.result().then((r) => ((finished.second = Date.now()), expect(r).toMatchObject({ status: 'completed', completion: { status: 'success' } }))),
      ]);
    });
    lag.disable();

    expect(toolResultsIn(fake.requestsFor(second)[1])[0]?.content).toContain('the second run reads this');
    // The regular expression ran out its time budget in its own thread; the second run did not wait for it.
    expect(finished.second).toBeLessThan(finished.wedger as number);
    const wedgerResults = toolResultsIn(fake.requestsFor(wedger)[1]);
    expect(wedgerResults.map((r) => r.is_error)).toEqual([true, true, true, true, true]);
    expect(wedgerResults[0]?.content).toMatch(/is a FIFO \(named pipe\), not a regular file/);
    expect(wedgerResults[4]?.content).toMatch(/regular expression ran for more than 3 s .* and was stopped/);
    // No stall of the worker's event loop anywhere near the regex's run time.
    expect(lag.max / 1e6).toBeLessThan(1_000);
  });
});
