// The Temporal server a test environment starts: the dev server of the `temporal` CLI (found, else
// installed in the per-user cache), else, when no CLI can be had and `@temporalio/testing` is
// installed, Temporal's own test server (its `createLocal` downloads the CLI from Temporal's site).
import { isInstalled, requireOptional } from '../runtime/optional-dependency';
import { ensureTemporalCli, TemporalCliNotFoundError } from './find-temporal-cli';
import { DEFAULT_SEARCH_ATTRIBUTES, LOW_LATENCY_DYNAMIC_CONFIG, startDevServer } from './temporal-dev-server';

export interface TestServer {
  address: string;
  stop(): Promise<void>;
}

/** What this file uses of `@temporalio/testing` (an optional peer dependency, so not imported for its types). */
interface TemporalTesting {
  TestWorkflowEnvironment: {
    createLocal(options: { server: { ip?: string; extraArgs?: string[] } }): Promise<{ address: string; teardown(): Promise<void> }>;
  };
}

export async function startTestServer(): Promise<TestServer> {
  let cli: string;
  try {
    cli = await ensureTemporalCli();
  } catch (error) {
    if (!(error instanceof TemporalCliNotFoundError)) throw error;
    return startWithTemporalTesting(error);
  }
  const server = await startDevServer({ headless: true, cli });
  return { address: server.address, stop: () => server.stop() };
}

async function startWithTemporalTesting(notFound: TemporalCliNotFoundError): Promise<TestServer> {
  const via = "@temporalio/testing (its TestWorkflowEnvironment.createLocal() downloads the CLI from Temporal's site)";
  if (!isInstalled('@temporalio/testing')) throw notFound.withTried(`${via}: not installed`);
  const { TestWorkflowEnvironment } = requireOptional<TemporalTesting>('@temporalio/testing', 'The test server');
  // The same search attributes and dynamic config as startDevServer's.
  const extraArgs = [
    ...Object.entries(DEFAULT_SEARCH_ATTRIBUTES).flatMap(([name, type]) => ['--search-attribute', `${name}=${type}`]),
    ...Object.entries(LOW_LATENCY_DYNAMIC_CONFIG).flatMap(([key, value]) => ['--dynamic-config-value', `${key}=${JSON.stringify(value)}`]),
  ];
  try {
    const environment = await TestWorkflowEnvironment.createLocal({ server: { ip: '127.0.0.1', extraArgs } });
    return { address: environment.address, stop: () => environment.teardown() };
  } catch (error) {
    throw notFound.withTried(`${via}: ${(error as Error).message}`);
  }
}
