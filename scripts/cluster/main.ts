// `npm run cluster`: the self-hosted topology of docker-compose.yml on one machine, without Docker,
// until Ctrl-C. See docs/guides/deploy.md ("The tested topology") for what runs where.
import * as path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { DEMO_LABEL, startDemoModelServer } from '../../src/runtime/demo/demo-model-server';
import { redactUrl } from '../../src/runtime/conversation/postgres-conversation-store';
import { startCluster, type Cluster, type ModelEndpoint } from './cluster';
import { CLUSTER_DIR } from './go-binaries';
import { startModelRelay } from './model-relay';

const say = (line: string) => void process.stdout.write(`${line}\n`);

/** With ANTHROPIC_API_KEY, a relay to the real API (the hosts have no internet); without, the demo model. */
async function modelFor(gateway: string): Promise<ModelEndpoint> {
  if (process.env.ANTHROPIC_API_KEY) {
    // The SDK's own default, unless ANTHROPIC_BASE_URL names another endpoint.
    const upstream = process.env.ANTHROPIC_BASE_URL || new Anthropic({ apiKey: 'unused' }).baseURL;
    say(`Model: relaying the hosts' calls to ${upstream}`);
    return startModelRelay({ host: gateway, upstream });
  }
  say(`Model: ANTHROPIC_API_KEY is not set, so the hosts use the offline demo model ${DEMO_LABEL}`);
  const demo = await startDemoModelServer({ host: gateway, delayMs: 400 });
  return { ...demo, apiKey: 'demo-model' };
}

function printSummary(cluster: Cluster): void {
  const address = cluster.temporalAddress;
  say('');
  say('The cluster is up.');
  say(`  Temporal frontend   ${address} (namespace ${cluster.namespace}, task queue ${cluster.taskQueue}), a proxy to every node's frontend`);
  for (const node of cluster.servers) say(`  ${`Temporal ${node.hostname}`.padEnd(20)}${node.frontendAddress}, netns ${node.namespace} (frontend, history, matching, worker)`);
  if (cluster.ui) say(`  Web UI              ${cluster.ui.url}`);
  say(`  PostgreSQL          ${cluster.postgres.host}:${cluster.postgres.port} (Temporal, visibility, conversations: ${redactUrl(cluster.conversationStoreUrl)})`);
  for (const host of cluster.hosts) say(`  ${host.hostname.padEnd(20)}${host.address}, netns ${host.namespace}, log ${path.relative(process.cwd(), host.logFile)}`);
  say(`  Logs                ${path.relative(process.cwd(), cluster.logDir)}/`);
  say('');
  say('Start a run:');
  say(`  TEMPORAL_ADDRESS=${address} npm run agentctl -- run general "Look around the workspace and write notes"`);
  say('Kill a host (every process in it, at once):');
  say(`  ip netns pids ${cluster.hosts[0]!.namespace} | xargs kill -9`);
  if (cluster.servers.length > 1) {
    say('Kill a Temporal server node (its shards move to the other):');
    say(`  ip netns pids ${cluster.servers[0]!.namespace} | xargs kill -9`);
  }
  say('');
  say('Ctrl-C stops everything.');
}

async function run(): Promise<void> {
  const started = Date.now();
  const cluster = await startCluster({ model: modelFor, logDir: path.join(CLUSTER_DIR, 'logs'), log: (line) => say(line) });
  say(`Started in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  printSummary(cluster);
  for (const host of cluster.hosts) {
    void host.process.exited.then(() => {
      if (!stopping) say(`The worker on ${host.hostname} is gone; its runs continue on the other hosts.`);
    });
  }
  let stopping = false;
  await new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
  });
  stopping = true;
  say('\nStopping: Web UI, workers, frontend proxy, Temporal server nodes, PostgreSQL, network...');
  await cluster.stop();
  say('Stopped.');
}

run().catch((error) => {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
  process.exit(1);
});
