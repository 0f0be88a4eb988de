// Preloaded (`--import`) into the bench:cpu worker process, and so into each of its threads: a
// thread that runs the Temporal SDK's workflow-worker-thread.js appends its OS thread id to
// BENCH_WORKFLOW_THREADS. Node names none of its threads (every /proc/<pid>/task/<tid>/comm reads
// "node"), so this is how bench:cpu tells the workflow threads from the main thread and the rest.
import { appendFileSync, readlinkSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BENCH_WORKFLOW_THREADS;
if (file && !isMainThread && /workflow-worker-thread\.js$/.test(process.argv[1] ?? '')) {
  // /proc/thread-self links to "<pid>/task/<tid>" for the calling thread.
  appendFileSync(file, `${readlinkSync('/proc/thread-self').split('/').pop()}\n`);
}
