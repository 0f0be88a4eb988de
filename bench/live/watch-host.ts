// A host for many `agentctl watch` invocations in one process (the live-output bench starts a few of
// these rather than 100 Node processes). Each invocation is the CLI's own `main(['watch', id])`, with
// its own Temporal connection, so the server sees 100 watchers; their output is counted, not kept,
// and the host tells its parent on stderr once every watcher has printed that the run waits.
//
//   tsx bench/live/watch-host.ts <workflowId> <count>
import { main } from '../../src/cli/cli';

const [workflowId, countArg] = process.argv.slice(2);
const count = Number(countArg);
const write = process.stderr.write.bind(process.stderr);
let parked = 0;
let bytes = 0;
// Every watcher writes here; a line per run that parks, and the streamed text.
process.stdout.write = ((chunk: string | Uint8Array) => {
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  bytes += text.length;
  const waits = text.split('Waiting for a decision...').length - 1;
  if (waits > 0 && parked < count) {
    parked += waits;
    if (parked >= count) write(`ready ${count}\n`);
  }
  return true;
}) as typeof process.stdout.write;
process.setMaxListeners(count + 10);

void Promise.all(Array.from({ length: count }, () => main(['watch', workflowId!]))).then((codes) => {
  // The CPU this host's watchers used, for the bench to set beside the run's slowdown.
  const { user, system } = process.cpuUsage();
  write(`done ${codes.filter((c) => c === 0).length}/${count} ${bytes} exit codes ${[...new Set(codes)].join(',')} cpu ${((user + system) / 1e6).toFixed(2)}\n`);
  process.exit(0);
});
