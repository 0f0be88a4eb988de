// What the message tests share.

/** Settles within `ms`, or fails saying what did not (a handler left waiting forever never settles). */
export function within<T>(promise: Promise<T>, ms: number, what = 'the promise'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not settled after ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
