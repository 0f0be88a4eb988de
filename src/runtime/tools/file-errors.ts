/**
 * A file tool refused a path that stays inside the workspace but is not safe to open: a FIFO,
 * socket or device, a file with hard links outside this run, a protected path written without a
 * person's approval, or a path that kept changing while it was opened. The message says which and
 * what to do; the tools turn it into an error result the model can act on. Not retryable as is.
 */
export class FileRefusedError extends Error {
  override readonly name = 'FileRefusedError';
}

/**
 * A `search_files` regular expression ran past its time budget, almost always catastrophic
 * backtracking (`^(a+)+$`). The matching thread was stopped; simplify the expression or search for
 * plain text.
 */
export class SearchTimeoutError extends Error {
  override readonly name = 'SearchTimeoutError';
}
