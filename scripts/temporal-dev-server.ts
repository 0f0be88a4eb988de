// The dev server lives in the testing kit (src/testing/temporal-dev-server.ts); scripts, benchmarks and
// the test suite start it through here, which installs the pinned CLI first when none is found.
import { ensureTemporalCli } from './install-temporal.js';
import { startDevServer as startWithCli, type DevServer, type DevServerOptions } from '../src/testing/temporal-dev-server';

export * from '../src/testing/temporal-dev-server';

export function startDevServer(opts: DevServerOptions = {}): Promise<DevServer> {
  return startWithCli({ cli: opts.cli ?? ensureTemporalCli(), ...opts });
}
