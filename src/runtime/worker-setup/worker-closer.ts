import type { Worker } from '@temporalio/worker';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * How an `AgentWorker` lets go of what it holds, whatever became of its Temporal worker:
 * - a worker that ran and stopped: the connections and files are closed;
 * - a worker that was created but never ran: Temporal's worker still holds its connection (closing it
 *   throws "Cannot close connection while Workers hold a reference to it"), and the SDK's runtime has
 *   taken SIGINT/SIGTERM, which only reach workers that run; so it is run until it stops at once, which
 *   releases the connection, and a signal does the same instead of being swallowed;
 * - a worker still running: it is shut down first, as a signal would.
 */
export function workerCloser(worker: Worker, release: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  const onSignal = () => {
    if (worker.getState() === 'INITIALIZED') void close().catch((error: unknown) => console.error(`Closing the worker after a signal failed: ${(error as Error).message}`));
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);

  async function stopWorker(): Promise<void> {
    const state = worker.getState();
    if (state === 'INITIALIZED') return worker.runUntil(Promise.resolve());
    if (state === 'RUNNING') worker.shutdown();
    // A worker shutting down (here, or by a signal) has stopped once its state says so.
    while (!['STOPPED', 'FAILED'].includes(worker.getState())) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  function close(): Promise<void> {
    closing ??= (async () => {
      for (const signal of SIGNALS) process.off(signal, onSignal);
      try {
        await stopWorker();
      } finally {
        await release();
      }
    })();
    return closing;
  }
  return close;
}
