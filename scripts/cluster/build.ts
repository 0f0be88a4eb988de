// `npm run cluster:build`: builds the Temporal server, its SQL tool and the Web UI from the Go module
// proxy into .cluster/bin (CI runs it as an install step; `npm run cluster` builds on demand too).
import { ensureTemporalBinaries } from './go-binaries';

async function run(): Promise<void> {
  const started = Date.now();
  const binaries = await ensureTemporalBinaries((line) => console.log(line));
  console.log(`Ready in ${((Date.now() - started) / 1000).toFixed(0)} s:\n  ${binaries.server}\n  ${binaries.sqlTool}\n  ${binaries.ui}`);
}

run().catch((error) => {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
  process.exit(1);
});
