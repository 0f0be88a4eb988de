import * as path from 'node:path';
import { bundleWorkflowCode, Runtime, type Logger, type WorkerOptions, type WorkflowBundle, type WorkflowBundleOption } from '@temporalio/worker';
import type { Tracing } from '../observability/tracing';

/**
 * The workflow bundle's entry, beside this module in whichever form it runs: `src/workflows/index.ts`
 * from a checkout (tsx, vitest), `dist/workflows/index.js` from the built package, also when it is
 * installed in a user's node_modules. So nobody passes `workflowsPath`: the worker bundles our own
 * compiled workflow code.
 */
export const WORKFLOWS_PATH = path.join(__dirname, '..', '..', 'workflows', `index${path.extname(__filename)}`);

/** Bundles made in this process, by whether they carry the tracing interceptors: a second worker reuses one. */
const bundles = new Map<string, Promise<WorkflowBundle>>();

/**
 * Where a worker's workflow code comes from: the bundle the caller gave, or one made here once per
 * process (webpack takes seconds), with webpack's module listing at DEBUG instead of a screenful at
 * INFO. Options that change what goes into a bundle (workflow interceptors, bundler options) leave
 * the bundling to Temporal's worker, as before.
 */
export async function workflowCode(given: WorkflowBundleOption | undefined, workerOptions: Partial<WorkerOptions> | undefined, tracing: Tracing | undefined): Promise<Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'>> {
  if (given) return { workflowBundle: given };
  if (workerOptions && (workerOptions.interceptors !== undefined || workerOptions.bundlerOptions !== undefined || workerOptions.workflowsPath !== undefined || workerOptions.workflowBundle !== undefined)) {
    return { workflowsPath: WORKFLOWS_PATH };
  }
  const key = tracing ? 'traced' : 'plain';
  let bundle = bundles.get(key);
  if (!bundle) {
    bundle = bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietBundler(Runtime.instance().logger), plugins: tracing ? [tracing.plugin] : [] });
    bundles.set(key, bundle);
    // A failed bundle is not kept: the next worker tries again.
    bundle.catch(() => bundles.delete(key));
  }
  return { workflowBundle: await bundle };
}

/** The runtime's logger, with webpack's listing of every module it bundled moved from INFO to DEBUG. */
function quietBundler(logger: Logger): Logger {
  return {
    log: (level, message, meta) => logger.log(level, message, meta),
    trace: (message, meta) => logger.trace(message, meta),
    debug: (message, meta) => logger.debug(message, meta),
    info: (message, meta) => (message === 'Workflow bundle created' ? logger.info(message, meta) : logger.debug(message, meta)),
    warn: (message, meta) => logger.warn(message, meta),
    error: (message, meta) => logger.error(message, meta),
  };
}
