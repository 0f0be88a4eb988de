// The Temporal Web UI: the same ui-server release as compose's `temporalio/ui` image, built from the
// Go module proxy (its compiled pages are embedded in the module), on loopback like compose publishes it.
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { preferredPort } from './ports';
import { startProcess, waitUntilReady, type ManagedProcess } from './processes';

export interface WebUi {
  url: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

export async function startWebUi(options: { binary: string; temporalAddress: string; namespace: string; runDir: string; logDir: string; port?: number }): Promise<WebUi> {
  // 8080 as compose publishes it, unless taken.
  const port = await preferredPort('127.0.0.1', options.port ?? 8080);
  const url = `http://127.0.0.1:${port}`;
  // The ui-server reads <root>/<config>/<env>.yaml; these keys are what the image's template sets
  // from TEMPORAL_ADDRESS and TEMPORAL_DEFAULT_NAMESPACE.
  const configDir = path.join(options.runDir, 'ui-config');
  await mkdir(configDir, { recursive: true });
  await writeFile(
    path.join(configDir, 'cluster.yaml'),
    [
      `temporalGrpcAddress: ${options.temporalAddress}`,
      'host: 127.0.0.1',
      `port: ${port}`,
      'enableUi: true',
      `defaultNamespace: ${options.namespace}`,
      // It would ask the internet for a newer version; these machines may have none.
      'notifyOnNewVersion: false',
      'cors:',
      '  allowOrigins:',
      `    - ${url}`,
      `    - http://localhost:${port}`,
      '',
    ].join('\n'),
  );
  const ui = startProcess('Temporal Web UI', options.binary, ['--root', options.runDir, '--config', 'ui-config', '--env', 'cluster', 'start'], {
    logFile: path.join(options.logDir, 'temporal-ui.log'),
  });
  await waitUntilReady([ui], `the Web UI at ${url}`, async () => (await fetch(url)).ok, 30_000);
  return { url, process: ui, stop: () => ui.stop() };
}
