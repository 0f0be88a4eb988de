/** What can go wrong starting the cluster. Each message says which part failed and what to check. */

/** A Go binary (the Temporal server, its SQL tool, the Web UI) could not be built. */
export class ClusterBuildError extends Error {
  override readonly name = 'ClusterBuildError';
}

/** A part of the cluster did not come up: a process exited early or never became ready. */
export class ClusterStartError extends Error {
  override readonly name = 'ClusterStartError';
}

/** The machine cannot host the cluster: not root (network namespaces need it), a tool missing. */
export class ClusterHostError extends Error {
  override readonly name = 'ClusterHostError';
}
