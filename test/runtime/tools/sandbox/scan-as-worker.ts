// Not a test: workspace-scan.test.ts starts this as a worker that is not root (under setpriv). It
// walks the workspace once and prints what came of it as JSON: the entries, or the error's name and message.
// Usage: node --import tsx scan-as-worker.ts <workspace>
import { scanWorkspace } from '../../../../src/runtime/tools/sandbox/workspace-scan';

const [workspace] = process.argv.slice(2);
if (!workspace) throw new TypeError('usage: scan-as-worker.ts <workspace>');
scanWorkspace(workspace, { hidden: [] }).then(
  (scan) => console.log(JSON.stringify({ entries: scan.entries })),
  (error: Error) => console.log(JSON.stringify({ name: error.name, message: error.message })),
);
