// Matching lines against a model-written regular expression without letting it wedge the worker.
// JavaScript's engine backtracks: `^(a+)+$` over 28 `a`s and a `b` takes seconds, and the time
// quadruples every two characters, on the thread that runs every workflow and activity of the worker.
// So a regular expression runs in a worker thread of its own, with a hard time budget for the whole
// call; past it the thread is terminated (V8 interrupts a running match) and the call fails with
// SearchTimeoutError. Plain-text queries are escaped into a pattern with no backtracking and run here.
import { Worker } from 'node:worker_threads';
import { SearchTimeoutError } from './file-errors';

/** Total regular-expression time one search_files call may use. */
export const REGEX_BUDGET_MS = 3_000;

// Plain JavaScript, evaluated by the worker thread: no build step or loader is involved.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const pattern = new RegExp(workerData.source, workerData.flags);
parentPort.on('message', (lines) => {
  const hits = [];
  for (let i = 0; i < lines.length; i += 1) if (pattern.test(lines[i])) hits.push(i);
  parentPort.postMessage(hits);
});
`;

export interface LineMatcher {
  /** Indices of the lines that match. */
  match(lines: string[]): Promise<number[]>;
  close(): Promise<void>;
}

/** Compiles the query (throws SyntaxError for an invalid expression) and returns a matcher for it. */
export function createLineMatcher(query: string, options: { regex: boolean; caseSensitive: boolean }, budgetMs = REGEX_BUDGET_MS): LineMatcher {
  const flags = options.caseSensitive ? '' : 'i';
  const source = options.regex ? query : query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(source, flags); // Compiling is quick and shows syntax errors here.
  if (!options.regex) {
    return {
      match: (lines) => Promise.resolve(lines.flatMap((line, i) => (pattern.test(line) ? [i] : []))),
      close: () => Promise.resolve(),
    };
  }
  return new ThreadedMatcher(source, flags, budgetMs);
}

class ThreadedMatcher implements LineMatcher {
  private readonly worker: Worker;
  private remainingMs: number;
  private readonly budgetMs: number;

  constructor(source: string, flags: string, budgetMs: number) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { source, flags } });
    this.remainingMs = budgetMs;
    this.budgetMs = budgetMs;
  }

  match(lines: string[]): Promise<number[]> {
    const started = Date.now();
    return new Promise<number[]>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.worker.off('message', onMessage);
        this.worker.off('error', onError);
        this.remainingMs -= Date.now() - started;
      };
      const onMessage = (hits: number[]) => {
        done();
        resolve(hits);
      };
      const onError = (error: Error) => {
        done();
        reject(error);
      };
      const timer = setTimeout(() => {
        done();
        void this.worker.terminate();
        reject(
          new SearchTimeoutError(
            `The regular expression ran for more than ${this.budgetMs / 1000} s (catastrophic backtracking, e.g. nested quantifiers like (a+)+) and was stopped. Simplify it or search for plain text.`,
          ),
        );
      }, Math.max(0, this.remainingMs));
      this.worker.on('message', onMessage);
      this.worker.on('error', onError);
      this.worker.postMessage(lines);
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
