// Types for test.js (`npm test`), which stays plain JavaScript so it runs before anything is compiled.

export interface Command {
  command: string;
  args: string[];
}

/**
 * Runs `suite` (its output inherited) and every check (output kept, written once it ends) at the same
 * time; the first check to fail stops the suite. Resolves with 0 when all passed, else 1.
 */
export declare function sideBySide(options: { suite: Command; checks: (Command & { name: string })[]; write?: (text: string) => void }): Promise<number>;

/** The path of vitest's command-line entry, which `npm test` runs with node. */
export declare function vitestBin(): string;
