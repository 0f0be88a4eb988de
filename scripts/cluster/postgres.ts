// A private PostgreSQL instance in a temporary folder: for `npm run cluster` and for tests of the
// PostgreSQL conversation store. Debian's server binaries, a fresh `initdb`, password logins over
// TCP on one address, and everything deleted on stop.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { freePort } from '../temporal-dev-server';
import { ClusterHostError, ClusterStartError } from './errors';
import { startProcess, waitUntilReady, type ManagedProcess } from './processes';
import { POSTGRES_MAJOR } from './versions';

export interface PostgresOptions {
  /** The one address it listens on: 127.0.0.1 for tests, the cluster network's address for the cluster. */
  host: string;
  /** Default: a free port on `host`. */
  port?: number;
  /** The superuser, who owns every database (default `temporal`, as in docker-compose.yml). */
  user?: string;
  /** Default: a random one. */
  password?: string;
  /** Where postgres.log goes (default: the temporary folder, deleted on stop). */
  logDir?: string;
  /** Called with each new server process (the first and every `startAgain`), e.g. to note its pid. */
  onStart?: (pid: number) => Promise<void> | void;
}

export interface PrivatePostgres {
  host: string;
  port: number;
  user: string;
  password: string;
  /** The server's current process (a new one after `startAgain`). */
  readonly process: ManagedProcess;
  /** A connection URL for `database`, with the password percent-encoded. */
  url(database: string): string;
  createDatabase(name: string): Promise<void>;
  /**
   * Shuts the server down in its "fast" mode (open sessions are ended, what was committed is kept),
   * as an operator's restart or a managed database's maintenance does. The data stays for `startAgain`.
   */
  shutDown(): Promise<void>;
  /** Starts it again on the same address, port and data; resolves once it accepts connections. */
  startAgain(): Promise<void>;
  /** Stops the server and deletes its folder. */
  stop(): Promise<void>;
}

/** Where the server binaries are: POSTGRES_BIN_DIR, or Debian's location for the pinned major. */
export function postgresBinDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.POSTGRES_BIN_DIR || `/usr/lib/postgresql/${POSTGRES_MAJOR}/bin`;
  if (!existsSync(path.join(dir, 'initdb'))) {
    throw new ClusterHostError(
      `PostgreSQL ${POSTGRES_MAJOR} is not installed at ${dir} (no initdb there). Install it (Debian: apt-get install postgresql-${POSTGRES_MAJOR}) or set POSTGRES_BIN_DIR.`,
    );
  }
  return dir;
}

/** initdb refuses to run as root, so root runs the server as the `postgres` user Debian's package creates. */
function serverAccount(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new ClusterHostError('Running as root, PostgreSQL needs an unprivileged account to run as, and there is no `postgres` user (Debian\'s postgresql package creates it).');
  }
}

export async function startPostgres(options: PostgresOptions): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  const account = serverAccount();
  const user = options.user ?? 'temporal';
  const password = options.password ?? randomBytes(12).toString('hex');
  const port = options.port ?? (await freePort(options.host));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'durable-agent-pg-'));
  const dataDir = path.join(dir, 'data');
  const passwordFile = path.join(dir, 'password');
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  if (account) {
    await chown(dir, account.uid, account.gid);
    await chown(passwordFile, account.uid, account.gid);
  }
  await chmod(dir, 0o700);

  try {
    execFileSync(
      path.join(bin, 'initdb'),
      ['-D', dataDir, '-U', user, `--pwfile=${passwordFile}`, '-A', 'scram-sha-256', '--auth-local=trust', '-E', 'UTF8', '--locale=C'],
      { ...account, stdio: 'pipe' },
    );
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    const output = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
    throw new ClusterStartError(`initdb failed:\n${output}`);
  }
  // initdb allows TCP logins from loopback only; the cluster's hosts come from their own addresses.
  // The server listens on one address and every login needs the password.
  await appendFile(path.join(dataDir, 'pg_hba.conf'), 'host all all 0.0.0.0/0 scram-sha-256\n');

  const logFile = path.join(options.logDir ?? dir, 'postgres.log');
  const url = (database: string) => `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${options.host}:${port}/${database}`;
  let server: ManagedProcess | undefined;
  const launch = async () => {
    const started = startProcess('PostgreSQL', path.join(bin, 'postgres'), ['-D', dataDir, '-h', options.host, '-p', String(port), '-k', dir], {
      ...account,
      logFile,
      stopSignal: 'SIGINT',
    });
    server = started;
    await options.onStart?.(started.pid);
    await waitUntilReady([started], `PostgreSQL to accept connections on ${options.host}:${port}`, async () => {
      const client = new Client({ connectionString: url('postgres'), connectionTimeoutMillis: 2_000 });
      await client.connect();
      await client.end();
      return true;
    });
  };
  const stop = async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  };

  try {
    await launch();
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    host: options.host,
    port,
    user,
    password,
    get process() {
      return server!;
    },
    url,
    async createDatabase(name) {
      const client = new Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } finally {
        await client.end();
      }
    },
    async shutDown() {
      await server?.stop();
    },
    async startAgain() {
      if (server?.isRunning()) throw new ClusterStartError(`PostgreSQL on ${options.host}:${port} is already running`);
      await launch();
    },
    stop,
  };
}
