import { isGrpcServiceError, type Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { DurableAgentError } from '../contract/durable-agent-error';
import { textTable } from './text-table';

/**
 * What `agentctl deploy status` shows: the builds of a worker deployment (Worker Versioning, see
 * docs/guides/upgrading.md), where the server routes new runs, and how many runs each build still
 * holds. A PINNED run stays on its build until it ends (or continues as new), so a build with runs
 * must keep a worker; one with none (drained) may be shut down.
 */
export interface DeploymentBuild {
  buildId: string;
  /** current: new runs start here; ramping: a share of them; draining: not routed to, runs still pinned here; drained: none left (by the server's last check); inactive: never routed to. */
  state: 'current' | 'ramping' | 'draining' | 'drained' | 'inactive' | 'unknown';
  /** The share of new runs a ramping build gets, in percent. */
  rampPercentage?: number;
  /** When the worker of this build first polled (ISO time). */
  createdAt?: string;
  /** Open `agentRun` executions pinned to this build (parked ones included). */
  runs: number;
  /** Every open workflow on this build (`runs` plus approval-preference keepers and the like). */
  workflows: number;
}

export interface DeploymentStatus {
  deployment: string;
  namespace: string;
  currentBuildId?: string;
  rampingBuildId?: string;
  builds: DeploymentBuild[];
}

/** The deployment does not exist on the server (no versioned worker has polled under this name). */
export class UnknownDeploymentError extends DurableAgentError {
  override readonly name = 'UnknownDeploymentError';
  readonly code = 'UNKNOWN_DEPLOYMENT';
  readonly retryable = false;
}

/** gRPC's NOT_FOUND status code. */
const GRPC_NOT_FOUND = 5;

const Status = temporal.api.enums.v1.WorkerDeploymentVersionStatus;
const STATES: Record<number, DeploymentBuild['state']> = {
  [Status.WORKER_DEPLOYMENT_VERSION_STATUS_CURRENT]: 'current',
  [Status.WORKER_DEPLOYMENT_VERSION_STATUS_RAMPING]: 'ramping',
  [Status.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINING]: 'draining',
  [Status.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINED]: 'drained',
  [Status.WORKER_DEPLOYMENT_VERSION_STATUS_INACTIVE]: 'inactive',
};

/** A visibility string literal: the value quoted, its quotes and backslashes escaped. */
function literal(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function isoOf(time: { seconds?: { toNumber(): number } | number | null } | null | undefined): string | undefined {
  const seconds = time?.seconds;
  if (seconds === undefined || seconds === null) return undefined;
  return new Date((typeof seconds === 'number' ? seconds : seconds.toNumber()) * 1000).toISOString();
}

/**
 * Reads the deployment from the server (DescribeWorkerDeployment) and counts, per build, the open
 * executions the visibility store has on it (the TemporalWorkerDeploymentVersion search attribute,
 * `<deployment>:<build id>`, which the server keeps on every versioned execution).
 */
export async function deploymentStatus(client: Client, deployment: string): Promise<DeploymentStatus> {
  const { namespace } = client.options;
  let info: temporal.api.deployment.v1.IWorkerDeploymentInfo | null | undefined;
  try {
    ({ workerDeploymentInfo: info } = await client.workflowService.describeWorkerDeployment({ namespace, deploymentName: deployment }));
  } catch (error) {
    if (isGrpcServiceError(error) && error.code === GRPC_NOT_FOUND) {
      throw new UnknownDeploymentError(`There is no worker deployment "${deployment}" in namespace ${namespace}: no worker with AGENT_DEPLOYMENT_NAME=${deployment} has polled yet. Check the name (AGENT_DEPLOYMENT_NAME, or --deployment).`, { cause: error });
    }
    throw error;
  }
  const routing = info?.routingConfig;
  const builds = await Promise.all(
    (info?.versionSummaries ?? []).map(async (summary): Promise<DeploymentBuild> => {
      const buildId = summary.deploymentVersion?.buildId ?? '';
      const version = literal(`${deployment}:${buildId}`);
      const open = `TemporalWorkerDeploymentVersion = ${version} AND ExecutionStatus = "Running"`;
      const [runs, workflows] = await Promise.all([client.workflow.count(`${open} AND WorkflowType = "agentRun"`), client.workflow.count(open)]);
      const state = STATES[summary.status ?? 0] ?? 'unknown';
      return {
        buildId,
        state,
        ...(state === 'ramping' && routing?.rampingVersionPercentage != null ? { rampPercentage: routing.rampingVersionPercentage } : {}),
        ...(isoOf(summary.createTime) ? { createdAt: isoOf(summary.createTime) } : {}),
        runs: runs.count,
        workflows: workflows.count,
      };
    }),
  );
  const order: DeploymentBuild['state'][] = ['current', 'ramping', 'draining', 'inactive', 'drained', 'unknown'];
  builds.sort((a, b) => order.indexOf(a.state) - order.indexOf(b.state) || (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
  const currentBuildId = routing?.currentDeploymentVersion?.buildId || undefined;
  const rampingBuildId = routing?.rampingDeploymentVersion?.buildId || undefined;
  return { deployment, namespace, ...(currentBuildId ? { currentBuildId } : {}), ...(rampingBuildId ? { rampingBuildId } : {}), builds };
}

/** The human rendering: one line per build, the current first. */
export function renderDeploymentStatus(status: DeploymentStatus): string {
  const head = `Worker deployment "${status.deployment}" (namespace ${status.namespace}); new runs start on ${status.currentBuildId ? `build ${status.currentBuildId}` : 'no build (none is current: unversioned workers take them)'}.`;
  if (status.builds.length === 0) return `${head}\nNo builds yet.`;
  const rows = status.builds.map((b) => [b.buildId, b.state + (b.rampPercentage !== undefined ? ` ${b.rampPercentage}%` : ''), String(b.runs), String(b.workflows), b.createdAt?.replace('T', ' ').slice(0, 19) ?? '']);
  const table = textTable(['BUILD', 'STATE', 'RUNS', 'WORKFLOWS', 'FIRST SEEN (UTC)'], rows);
  const busy = status.builds.filter((b) => b.state !== 'current' && b.state !== 'ramping' && b.workflows > 0);
  const note = busy.length > 0 ? `\nKeep a worker on ${busy.map((b) => b.buildId).join(', ')} until its runs end: they are pinned there.` : '';
  return `${head}\n${table}${note}`;
}
