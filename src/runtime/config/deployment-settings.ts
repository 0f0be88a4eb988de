/**
 * Worker Versioning (docs/guides/upgrading.md): a worker that names a worker deployment and a build
 * id joins that deployment as one of its versions, and `agentRun` is PINNED to the build that started
 * it. Both are optional and go together: with neither, the worker is unversioned, as before.
 */
export interface WorkerDeployment {
  /** AGENT_DEPLOYMENT_NAME: the worker deployment (one per task queue set, e.g. `agents`). */
  name: string;
  /** AGENT_BUILD_ID: this build of the worker code (a git commit, an image tag). */
  buildId: string;
}

/** Temporal's limit for both (the server refuses longer ones with a less helpful message). */
const MAX_LENGTH = 255;

/**
 * The deployment a worker joins, from AGENT_DEPLOYMENT_NAME and AGENT_BUILD_ID (or the library's
 * `deployment` option): undefined when neither is set, the problems (each naming its variable) when
 * only one is, or one is not usable as Temporal's name for a version.
 */
export function deploymentFrom(name: string | undefined, buildId: string | undefined, names = { name: 'AGENT_DEPLOYMENT_NAME', buildId: 'AGENT_BUILD_ID' }): { deployment?: WorkerDeployment; problems: string[] } {
  const trimmedName = name?.trim() || undefined;
  const trimmedBuild = buildId?.trim() || undefined;
  if (!trimmedName && !trimmedBuild) return { problems: [] };
  const problems: string[] = [];
  if (!trimmedName) problems.push(`${names.buildId}="${trimmedBuild}" is set without ${names.name}: a build id belongs to a worker deployment. Set ${names.name} as well (e.g. "agents"), or unset ${names.buildId} to run an unversioned worker.`);
  if (!trimmedBuild) problems.push(`${names.name}="${trimmedName}" is set without ${names.buildId}: a worker joins a deployment as one of its builds. Set ${names.buildId} as well (e.g. the git commit), or unset ${names.name} to run an unversioned worker.`);
  for (const [variable, value] of [[names.name, trimmedName], [names.buildId, trimmedBuild]] as const) {
    if (value && value.length > MAX_LENGTH) problems.push(`${variable} is ${value.length} characters long; Temporal takes at most ${MAX_LENGTH}.`);
  }
  // The server writes a version as `<deployment>.<build id>` in places (search attributes, the CLI's
  // --deployment-version), so a dot in the deployment name would make that ambiguous; it is refused.
  if (trimmedName?.includes('.')) problems.push(`${names.name}="${trimmedName}" contains a dot; Temporal refuses dots in a deployment name (use - or _).`);
  if (problems.length > 0) return { problems };
  return { deployment: { name: trimmedName!, buildId: trimmedBuild! }, problems };
}
