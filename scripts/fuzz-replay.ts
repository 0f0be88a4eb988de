// Replays saved histories (`npm run fuzz -- --save DIR` writes them; test/workflows/fuzz/findings keeps
// some) against this checkout's workflow code, and says for each whether it replays:
//   npx tsx scripts/fuzz-replay.ts test/workflows/fuzz/findings/one-writer-seed-5/fz5x7ad0-run.link0.json
// Exits 1 when any history does not replay.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger, Worker } from '@temporalio/worker';
import { lifecycleSinks } from '../src/runtime/lifecycle/lifecycle-sink';
import { WORKFLOWS_PATH } from '../src/runtime/worker-setup/create-agent-worker';

async function main(files: string[]): Promise<number> {
  if (files.length === 0) {
    console.error('usage: npx tsx scripts/fuzz-replay.ts <history.json>...');
    return 2;
  }
  const workflowBundle = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('WARN') });
  let failed = 0;
  for (const file of files) {
    const history: unknown = JSON.parse(readFileSync(file, 'utf8'));
    try {
      await Worker.runReplayHistory({ workflowBundle, sinks: lifecycleSinks([]) }, history, path.basename(file, '.json'));
      console.log(`${file}: replays`);
    } catch (error) {
      failed += 1;
      console.log(`${file}: does not replay: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return failed > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
