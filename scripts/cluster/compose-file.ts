import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';

/**
 * Reading docker-compose.yml the way Docker Compose does (YAML with merge keys, then variable
 * interpolation), on machines without a Docker engine. `npm run cluster` takes the services'
 * settings and scripts from here, so the cluster it starts runs what compose would deploy; the
 * tests in test/deploy/ validate the same file against the Compose Specification.
 */

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const COMPOSE_FILE = path.join(REPO_ROOT, 'docker-compose.yml');

/** The parts of a service the tests read; the schema check covers the rest. */
export interface ComposeService {
  image?: string;
  build?: string | { context?: string };
  container_name?: string;
  restart?: string;
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: unknown[];
  volumes?: (string | { type?: string; source?: string; target?: string })[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[] };
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
  [key: string]: unknown;
}

/** Thrown when the file uses `${VAR:?message}` for a variable the environment does not set. */
export class MissingComposeVariableError extends Error {
  override name = 'MissingComposeVariableError';
}

// `$$`, `$VAR`, `${VAR}` and `${VAR<op>word}` with op one of :- - :? ? :+ +, as in the Compose
// Specification's interpolation section. Nested expressions are not used in our file.
const VARIABLE = /\$(?:(\$)|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g;

export function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(VARIABLE, (_match, dollar, braced, operator, word, bare) => {
    if (dollar) return '$';
    const name = (braced ?? bare) as string;
    const value = env[name];
    const isSet = value !== undefined;
    const isSetAndNonEmpty = isSet && value !== '';
    switch (operator as string | undefined) {
      case ':-':
        return isSetAndNonEmpty ? value : word;
      case '-':
        return isSet ? value : word;
      case ':+':
        return isSetAndNonEmpty ? word : '';
      case '+':
        return isSet ? word : '';
      case ':?':
      case '?':
        if (operator === ':?' ? isSetAndNonEmpty : isSet) return value as string;
        throw new MissingComposeVariableError(`${name} is required: ${word}`);
      default:
        return value ?? '';
    }
  });
}

function interpolateValues(node: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof node === 'string') return interpolate(node, env);
  if (Array.isArray(node)) return node.map((item) => interpolateValues(item, env));
  if (node !== null && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, interpolateValues(value, env)]));
  }
  return node;
}

/** Parses compose YAML and interpolates it against `env` (an empty one shows the file's defaults). */
export function parseComposeFile(text: string, env: Record<string, string | undefined> = {}): ComposeFile {
  return interpolateValues(parse(text, { merge: true }), env) as ComposeFile;
}

export function loadComposeFile(env: Record<string, string | undefined> = {}): ComposeFile {
  return parseComposeFile(readFileSync(COMPOSE_FILE, 'utf8'), env);
}

/** A service's environment as a name-to-value map, whichever of the two Compose forms it uses. */
export function environmentOf(service: ComposeService): Record<string, string> {
  const environment = service.environment ?? {};
  if (Array.isArray(environment)) {
    return Object.fromEntries(
      environment.map((entry) => {
        const separator = entry.indexOf('=');
        return separator === -1 ? [entry, ''] : [entry.slice(0, separator), entry.slice(separator + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(environment).map(([key, value]) => [key, value === null ? '' : String(value)]));
}

/** A service's command (or entrypoint) as one string, for looking for what it runs. */
export function scriptOf(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(' ') : (value ?? '');
}

/** depends_on in its long form, whichever form the file uses. */
export function dependenciesOf(service: ComposeService): Record<string, { condition?: string }> {
  const dependsOn = service.depends_on ?? {};
  if (Array.isArray(dependsOn)) {
    return Object.fromEntries(dependsOn.map((name) => [name, { condition: 'service_started' }]));
  }
  return dependsOn;
}
