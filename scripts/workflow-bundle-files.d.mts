// Types for workflow-bundle-files.mjs, which stays plain JavaScript so eslint.config.mjs can load it.

/** Every source file (relative to `root`, with `/`) the workflow bundle loads, sorted. */
export declare function workflowBundleFiles(root?: string): string[];
