// `npm run fuzz`: runs schedules against a real Temporal server and prints what each found.
//   npm run fuzz -- --seed 7 [--seed 12]     replay these seeds
//   npm run fuzz -- --schedules 50 [--from 1000]   run seeds from..from+N-1 (from defaults to 1)
//   --address host:port   use a running server (default: a dev server started here, or TEMPORAL_ADDRESS)
//   --verbose             print every schedule's messages, not only those of failing ones
//   --save DIR            write each failing schedule's report, trace and histories under DIR/seed-N/
import { parseArgs } from 'node:util';
import { startDevServer, type DevServer } from '../../../scripts/temporal-dev-server';
import { fuzzSeed } from './fuzz-seed';
import { finalTable, fullReport, messageTimeline, saveResult, summaryLine, type ScheduleResult } from './report';
import { FuzzWorld } from './world';

async function run(): Promise<number> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string', multiple: true },
      schedules: { type: 'string' },
      from: { type: 'string' },
      address: { type: 'string' },
      verbose: { type: 'boolean' },
      save: { type: 'string' },
    },
  });
  const count = Number(values.schedules ?? 10);
  const from = Number(values.from ?? 1);
  const seeds = values.seed ? values.seed.map(Number) : Array.from({ length: count }, (_, i) => from + i);
  if (seeds.some((s) => !Number.isInteger(s) || s < 0) || !Number.isInteger(count) || count < 1) {
    console.error('Seeds and --schedules must be whole numbers (e.g. npm run fuzz -- --schedules 20 --from 100, or --seed 7).');
    return 2;
  }
  let server: DevServer | undefined;
  const address = values.address ?? process.env.TEMPORAL_ADDRESS ?? (server = await startDevServer({ headless: true })).address;
  const world = await FuzzWorld.open(address);
  const results: ScheduleResult[] = [];
  const began = Date.now();
  try {
    console.log(`fuzzing ${seeds.length} schedule(s) against ${address}: seeds ${seeds.length > 6 ? `${seeds[0]}..${seeds.at(-1)}` : seeds.join(' ')}`);
    for (const seed of seeds) {
      const result = await fuzzSeed(world, seed);
      results.push(result);
      console.log(result.violations.length > 0 ? fullReport(result) : summaryLine(result));
      if (values.save && result.violations.length > 0) console.log(`  saved in ${await saveResult(values.save, result)}`);
      if (values.verbose && result.violations.length === 0) console.log(messageTimeline(result.trace).join('\n'));
    }
  } finally {
    console.log(finalTable(results, Date.now() - began));
    await world.close();
    await server?.stop();
  }
  return results.some((r) => r.violations.length > 0) ? 1 : 0;
}

run().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
