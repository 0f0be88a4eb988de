// Preloaded (`--import`) into the bench:cpu worker process, and so into each of its threads: a
// thread that runs the Temporal SDK's workflow-worker-thread.js appends its OS thread id to
// BENCH_WORKFLOW_THREADS. Node names none of its threads (every /proc/<pid>/task/<tid>/comm reads
// "node"), so this is how bench:cpu tells the workflow threads from the main thread and the rest.
//
// With BENCH_COUNT_PROMISES (bench:cpu --count-promises, a diagnostic: the hook costs CPU itself) the
// thread also counts the promises created inside workflow contexts (a promise whose constructor is not
// this realm's Promise: the SDK's sandbox), the ones the SDK's own promise hook captures a stack trace
// for, and keeps the running count in "<BENCH_WORKFLOW_THREADS>.<tid>.promises" for the bench to read.
import { appendFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { promiseHooks } from 'node:v8';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BENCH_WORKFLOW_THREADS;
if (file && !isMainThread && /workflow-worker-thread\.js$/.test(process.argv[1] ?? '')) {
  // /proc/thread-self links to "<pid>/task/<tid>" for the calling thread.
  const tid = readlinkSync('/proc/thread-self').split('/').pop();
  appendFileSync(file, `${tid}\n`);
  if (process.env.BENCH_COUNT_PROMISES) {
    let count = 0;
    promiseHooks.onInit((promise) => {
      if (promise.constructor !== Promise) count += 1;
    });
    const out = `${file}.${tid}.promises`;
    setInterval(() => writeFileSync(out, String(count)), 50).unref();
  }
}
