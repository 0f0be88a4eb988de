import { AgentConfigError } from '../../contract/errors';

/**
 * Replaces `${NAME}` in a configuration value with the worker's environment variable, so secrets
 * (tokens in MCP headers or env) stay out of the file. A variable that is not set stops the worker:
 * a server started with an empty token fails later and less clearly.
 */
export function expandEnv(value: string, env: NodeJS.ProcessEnv, where: string): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => {
    const found = env[name];
    if (found === undefined) throw new AgentConfigError(`${where} uses \${${name}}, but ${name} is not set in the worker's environment; set it or write the value.`);
    return found;
  });
}

export function expandEnvRecord(values: Record<string, string>, env: NodeJS.ProcessEnv, where: string): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, expandEnv(value, env, `${where}.${key}`)]));
}
