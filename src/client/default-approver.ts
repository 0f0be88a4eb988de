/** Who decides when the CLI is not told: the login name, so "always" is remembered for that person. */
export function defaultApprover(env: NodeJS.ProcessEnv = process.env): string {
  return env.USER || env.USERNAME || 'cli';
}
