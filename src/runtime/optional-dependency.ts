// Features whose packages are optional peer dependencies (OpenTelemetry's SDK, the MCP SDK, the
// console's web server) load them here, when first used, so that a project that never uses them
// need not install them, and one that does gets an error naming the packages to install.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { DurableAgentError } from '../contract/durable-agent-error';

/** Resolves from this package's own location, where npm puts its peer dependencies within reach. */
const load = createRequire(__filename);

/** A feature was used whose packages are not installed; the message gives the `npm i` line that adds them. */
export class MissingDependencyError extends DurableAgentError {
  override readonly name = 'MissingDependencyError';
  readonly code = 'MISSING_DEPENDENCY';
  readonly retryable = false;

  constructor(
    /** What was used, as a user would name it: "tracing (OTEL_EXPORTER_OTLP_ENDPOINT is set)". */
    readonly feature: string,
    /** The packages it needs that could not be found. */
    readonly packages: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(`${feature} needs ${listOf(packages)}, not installed here: npm i ${packages.join(' ')}`, options);
  }
}

function listOf(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}

/** Whether `name` is installed where this package's `require` looks (its peers are found there). */
export function isInstalled(name: string): boolean {
  // By its package.json, not by resolving its main entry: some packages have none (only subpaths).
  return (load.resolve.paths(name) ?? []).some((dir) => existsSync(path.join(dir, name, 'package.json')));
}

/**
 * Throws `MissingDependencyError` naming every package of `packages` that is not installed, so the
 * user learns all of them at once.
 */
export function requireInstalled(feature: string, packages: readonly string[]): void {
  const missing = packages.filter((name) => !isInstalled(name));
  if (missing.length > 0) throw new MissingDependencyError(feature, missing);
}

/** The package a module specifier names: `@scope/name` or `name`, without a subpath. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return parts.slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
}

/**
 * `require(specifier)` (a package or one of its subpaths), or `MissingDependencyError` naming the
 * package when it is not installed. An error raised while loading an installed package propagates.
 */
export function requireOptional<T>(specifier: string, feature: string): T {
  try {
    return load(specifier) as T;
  } catch (error) {
    const name = packageOf(specifier);
    if (!isInstalled(name)) throw new MissingDependencyError(feature, [name], { cause: error });
    throw error;
  }
}
