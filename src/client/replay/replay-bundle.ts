import * as path from 'node:path';
import { bundleWorkflowCode, DefaultLogger, type WorkflowBundle } from '@temporalio/worker';

/** The workflow code the worker bundles (create-agent-worker.ts), found the same way without loading the worker's modules. */
const WORKFLOWS_DIR = path.join(__dirname, '..', '..', 'workflows');
const ext = path.extname(__filename);

/**
 * The `agentRun` code plus the replay lab's recorder (workflows/replay-lab-recorder.ts), which hands
 * out every activity call, message and result while a history replays. One bundle serves both ends
 * of a replay: it reads the recorded run (a replay), and the shadow worker runs the shadow with it
 * (live, where the recorder's sink is a no-op the shadow worker registers). Bundling takes seconds,
 * so a process bundles once.
 */
let bundled: Promise<WorkflowBundle> | undefined;
export function replayLabBundle(): Promise<WorkflowBundle> {
  bundled ??= bundleWorkflowCode({
    workflowsPath: path.join(WORKFLOWS_DIR, `index${ext}`),
    workflowInterceptorModules: [path.join(WORKFLOWS_DIR, `replay-lab-recorder${ext}`)],
    logger: new DefaultLogger('WARN'),
  }).catch((error: unknown) => {
    bundled = undefined;
    throw error;
  });
  return bundled;
}
