// Live output, two ways side by side in one run, alternately, round after round: through the worker's
// live relay (the default: the CLI finds it in the model call's heartbeat and the worker pushes each
// piece), and by polling Temporal (AGENT_LIVE_RELAY=off: the CLI reads the heartbeat, throttled to one
// per 500 ms, every 250 ms). Then what watchers cost: the Temporal frontend's requests per second, the
// run's iteration time and an approval's p50, with 0 and with `--watchers` real `agentctl watch`
// following one run, each way.
//
// With `--pin 1`, the cost rounds run the bench (worker, relay, fake model) and the dev server on the
// first CPU and the watcher hosts on the others (`taskset`), with 0 watchers as with 100, so what the
// watchers cost the run is not the CPU they take from it on a shared machine. The CPU columns say the
// same without pinning: the run side's and the server's CPU ms per model request, with and without.
//
//   npm run bench:live-output -- [--runs 3] [--rounds 2] [--watchers 100] [--approvals 10] [--iterations 20] [--cost-rounds 2] [--pin 1] [--relay-only 1]
import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import { startFakeAnthropic } from '../test/support/fake-anthropic';
import { metricsUrlFrom } from './live/server-requests';
import { measureRun, PIECE_CHARS, PIECE_GAP_MS, STREAMED } from './live/latency';
import { measureWatchCost, type WatchCost } from './live/watch-cost';
import { benchWorker, ms, percentile, report, sizeArg, startBenchEnv, table } from './support/bench-env';
import { parseWorkerSettings } from '../src/runtime/config/worker-settings';

const RUNS = sizeArg('runs', 3);
const ROUNDS = sizeArg('rounds', 2);
const WATCHERS = sizeArg('watchers', 100);
const APPROVALS = sizeArg('approvals', 10);
const ITERATIONS = sizeArg('iterations', 20);
const COST_ROUNDS = sizeArg('cost-rounds', 2);
const PIN = process.argv.includes('--pin') ? sizeArg('pin', 1) === 1 : false;
/** `--relay-only 1`: the cost rounds measure the relay alone (100 polling watchers load the machine for minutes). */
const RELAY_ONLY = process.argv.includes('--relay-only') ? sizeArg('relay-only', 1) === 1 : false;

/** Pins the run's side to CPU 0 and returns the CPUs left for the watchers (Linux `taskset`). */
function pinRunSide(serverPid: number): string {
  const cpus = os.cpus().length;
  if (cpus < 2) throw new Error('--pin needs at least 2 CPUs: one for the run, the rest for the watchers.');
  for (const pid of [process.pid, serverPid]) execFileSync('taskset', ['-a', '-p', '-c', '0', String(pid)], { stdio: 'ignore' });
  return cpus === 2 ? '1' : `1-${cpus - 1}`;
}

const MODES = {
  relay: { workerEnv: {}, label: 'relay (default)' },
  poll: { workerEnv: { AGENT_LIVE_RELAY: 'off' }, label: 'polling (AGENT_LIVE_RELAY=off)' },
} as const;
type Mode = keyof typeof MODES;

const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

async function run(): Promise<void> {
  const lines: string[] = [];
  const env = await startBenchEnv({ log: (line) => lines.push(line) });
  const fake = await startFakeAnthropic();
  const workers = {
    relay: await benchWorker(env, fake.baseUrl),
    poll: await benchWorker(env, fake.baseUrl, { settings: parseWorkerSettings({ ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: fake.baseUrl, ...MODES.poll.workerEnv }) }),
  };
  const running = [workers.relay.worker.run(), workers.poll.worker.run()];
  const latency: Record<Mode, { delays: number[]; missed: number; byRound: string[] }> = { relay: { delays: [], missed: 0, byRound: [] }, poll: { delays: [], missed: 0, byRound: [] } };
  const costs: { round: number; mode: Mode; watchers: number; cost: WatchCost }[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // Alternately, so the machine's load (shared, and it moves) falls on both alike.
      for (const mode of (round % 2 === 0 ? ['relay', 'poll'] : ['poll', 'relay']) as Mode[]) {
        const delays: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          const measured = await measureRun(fake, env.server.address, workers[mode].taskQueue);
          delays.push(...measured.delays);
          latency[mode].missed += measured.missed;
        }
        latency[mode].delays.push(...delays);
        latency[mode].byRound.push(`${ms(percentile(delays, 50), 0)}/${ms(percentile(delays, 95), 0)}`);
        console.error(`round ${round + 1} ${mode}: p50 ${ms(percentile(delays, 50), 0)} ms, p95 ${ms(percentile(delays, 95), 0)} ms`);
      }
    }
  } finally {
    for (const worker of Object.values(workers)) worker.worker.shutdown();
    await Promise.all(running);
    for (const worker of Object.values(workers)) await worker.close();
  }
  try {
    const metricsUrl = metricsUrlFrom(lines);
    if (!metricsUrl) throw new Error(`The dev server did not say where its metrics are:\n${lines.join('\n')}`);
    const watcherCpus = PIN ? pinRunSide(env.server.process.pid!) : undefined;
    for (let round = 1; round <= COST_ROUNDS; round++) {
      for (const watchers of [0, WATCHERS]) {
        for (const mode of (RELAY_ONLY ? ['relay'] : round % 2 === 1 ? ['relay', 'poll'] : ['poll', 'relay']) as Mode[]) {
          const cost = await measureWatchCost({ env, metricsUrl, fake, watchers, approvals: APPROVALS, iterations: ITERATIONS, workerEnv: MODES[mode].workerEnv, watcherCpus });
          costs.push({ round, mode, watchers, cost });
          console.error(`round ${round} ${mode} with ${watchers} watchers: ${sum(cost.rates.values()).toFixed(1)} req/s, iteration p50 ${ms(percentile(cost.iterationMs, 50))} ms, approval p50 ${ms(percentile(cost.approvalMs, 50))} ms, run CPU ${cost.runCpuMsPerRequest.toFixed(1)} ms/request, server CPU ${cost.serverCpuMsPerRequest.toFixed(1)} ms/request`);
        }
      }
    }
  } finally {
    await env.close();
    await fake.close();
  }
  const top = (rates: Map<string, number>) =>
    [...rates].filter(([, rate]) => rate >= 0.5).sort((a, b) => b[1] - a[1]).slice(0, 4).map(([op, rate]) => `${op} ${rate.toFixed(1)}`).join(', ');
  report(
    'live-output',
    `npm run bench:live-output -- --runs ${RUNS} --rounds ${ROUNDS} --watchers ${WATCHERS} --approvals ${APPROVALS} --iterations ${ITERATIONS} --cost-rounds ${COST_ROUNDS}${PIN ? ' --pin 1' : ''}${RELAY_ONLY ? ' --relay-only 1' : ''}`,
    [
      `Latency: ${ROUNDS} rounds, each ${RUNS} runs per way, the ways alternating; each run streams ${STREAMED.length} characters in pieces of ${PIECE_CHARS}, ${PIECE_GAP_MS} ms apart; delay from a piece leaving the fake API to \`agentctl run\` printing it. Target p50 ≤ 150 ms, p95 ≤ 300 ms.`,
      '',
      table(['way', 'pieces', 'missed', 'p50 ms', 'p95 ms', 'max ms', 'p50/p95 by round'], (Object.keys(MODES) as Mode[]).map((mode) => {
        const { delays, missed, byRound } = latency[mode];
        return [MODES[mode].label, delays.length, missed, ms(percentile(delays, 50), 0), ms(percentile(delays, 95), 0), ms(Math.max(...delays), 0), byRound.join(' · ')];
      })),
      '',
      `Cost per watcher: one run of ${APPROVALS} approvals then ${ITERATIONS} plain iterations (each a short streamed reply), followed by 0 or ${WATCHERS} \`agentctl watch\` (in-process hosts of 10); ${COST_ROUNDS} rounds, the order alternating. Requests: the dev server's frontend \`service_requests\` over the run. Target: ${WATCHERS} watchers slow iterations and approvals by at most 10%. ${PIN ? 'Pinned: the bench (worker, relay, fake model) and the dev server on CPU 0, the watcher hosts on the others, in every row.' : 'Not pinned: the watcher hosts share every CPU with the run.'} Run CPU: this process (worker, relay, fake model, the bench's decisions) per model request in the window; server CPU: the dev server's.`,
      '',
      table(['round', 'way', 'watchers', 'frontend req/s', 'per watcher req/s', 'iteration p50 ms', 'approval p50 ms', 'run CPU ms / request', 'server CPU ms / request', 'watchers attached', 'watchers done', 'watcher CPU s', 'busiest operations'], costs.map(({ round, mode, watchers, cost }) => {
        const base = costs.find((c) => c.round === round && c.mode === mode && c.watchers === 0)!.cost;
        const extra = watchers > 0 ? ((sum(cost.rates.values()) - sum(base.rates.values())) / watchers).toFixed(2) : '-';
        return [round, MODES[mode].label, watchers, sum(cost.rates.values()).toFixed(1), extra, ms(percentile(cost.iterationMs, 50)), ms(percentile(cost.approvalMs, 50)), cost.runCpuMsPerRequest.toFixed(1), cost.serverCpuMsPerRequest.toFixed(1), `${cost.watchersReady}/${watchers}`, `${cost.watchersDone}/${watchers}`, watchers > 0 ? cost.watcherCpuSeconds.toFixed(1) : '-', top(cost.rates)];
      })),
    ].join('\n'),
  );
}

run().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
