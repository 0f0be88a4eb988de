import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  readCompose,
  SERVER_PORT_VARIABLES,
  serverEnvironment,
  setupScript,
  uiDefaultNamespace,
  workerEnvironment,
  type ServerPorts,
} from '../../scripts/cluster/compose-services';
import { parse } from 'yaml';
import { LOW_LATENCY_DYNAMIC_CONFIG } from '../../scripts/temporal-dev-server';
import { WORKER_COMMAND } from '../../scripts/cluster/worker-hosts';
import { POSTGRES_MAJOR, TEMPORAL_SERVER_VERSION, TEMPORAL_UI_VERSION } from '../../scripts/cluster/versions';
import { environmentOf, REPO_ROOT, type ComposeFile } from './compose-file';

// `npm run cluster` (and `npm run test:cluster`) run what docker-compose.yml deploys: the same
// versions, and each service's environment and setup script taken from the compose file with only
// addresses, ports and paths changed. These checks fail when the two drift apart.

let compose: ComposeFile;
const postgres = { user: 'temporal', password: 'cluster-secret' };
const at = { host: '10.213.0.1', port: 55432 };
const ports = Object.fromEntries(SERVER_PORT_VARIABLES.map((name, i) => [name, 17000 + i])) as ServerPorts;

beforeAll(() => {
  compose = readCompose({}, postgres);
});

/** The keys whose values differ between two environments, and those only one of them has. */
function changedKeys(original: Record<string, string>, changed: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(original), ...Object.keys(changed)]);
  return [...keys].filter((key) => original[key] !== changed[key]).sort();
}

const imageOf = (name: string) => compose.services[name]!.image!;

describe('npm run cluster and docker-compose.yml', () => {
  it('run the same Temporal server, admin tools, Web UI and PostgreSQL major version', () => {
    expect(imageOf('temporal')).toBe(`temporalio/server:${TEMPORAL_SERVER_VERSION}`);
    for (const name of ['temporal-schema-setup', 'temporal-create-namespace']) expect(imageOf(name)).toBe(`temporalio/admin-tools:${TEMPORAL_SERVER_VERSION}`);
    expect(imageOf('temporal-ui')).toBe(`temporalio/ui:${TEMPORAL_UI_VERSION}`);
    expect(imageOf('postgresql')).toMatch(new RegExp(`^postgres:${POSTGRES_MAJOR}(\\.|-|$)`));
  });

  it("configure the server from the temporal service's environment, changing only addresses, ports and the dynamic config's path", () => {
    const original = environmentOf(compose.services.temporal!);
    const cluster = serverEnvironment(compose, { bindIp: at.host, postgres: at, ports });
    expect(changedKeys(original, cluster)).toEqual(['BIND_ON_IP', 'DB_PORT', 'DYNAMIC_CONFIG_FILE_PATH', 'POSTGRES_SEEDS', ...SERVER_PORT_VARIABLES].sort());
    expect(cluster).toMatchObject({ DB: 'postgres12', POSTGRES_USER: postgres.user, POSTGRES_PWD: postgres.password });
  });

  it('give the server the dynamic config file that compose mounts', () => {
    const cluster = serverEnvironment(compose, { bindIp: at.host, postgres: at, ports });
    expect(cluster.DYNAMIC_CONFIG_FILE_PATH).toBe(path.join(REPO_ROOT, 'deploy', 'temporal', 'dynamicconfig.yaml'));
    expect(existsSync(cluster.DYNAMIC_CONFIG_FILE_PATH!)).toBe(true);
  });

  it("set the history queue readers' rate the dev server gets (npm start and the tests)", () => {
    const file = parse(readFileSync(path.join(REPO_ROOT, 'deploy', 'temporal', 'dynamicconfig.yaml'), 'utf8')) as Record<string, { value: unknown }[]>;
    for (const [key, value] of Object.entries(LOW_LATENCY_DYNAMIC_CONFIG)) expect(file[key], key).toEqual([{ value, constraints: {} }]);
  });

  it("give every worker host the worker service's environment, changing only addresses and paths", () => {
    const original = environmentOf(compose.services.worker!);
    const cluster = workerEnvironment(compose, { temporalAddress: `${at.host}:7233`, postgres: at, workspace: '/tmp/ws', auditLog: '/tmp/host1/audit.log', modelBaseUrl: 'http://10.213.0.1:4000' });
    expect(changedKeys(original, cluster)).toEqual(['AGENT_AUDIT_LOG', 'AGENT_CONVERSATION_STORE', 'AGENT_WORKSPACE', 'ANTHROPIC_BASE_URL', 'TEMPORAL_ADDRESS']);
    // The same store, user and database; only where the database is differs.
    const [composeStore, clusterStore] = [new URL(original.AGENT_CONVERSATION_STORE!), new URL(cluster.AGENT_CONVERSATION_STORE!)];
    expect([clusterStore.protocol, clusterStore.username, clusterStore.password, clusterStore.pathname]).toEqual([composeStore.protocol, composeStore.username, composeStore.password, composeStore.pathname]);
    expect(clusterStore.host).toBe(`${at.host}:${at.port}`);
  });

  it("run the worker image's command on every host", () => {
    const cmd = readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8').match(/^CMD (.*)$/m)![1]!;
    expect(JSON.parse(cmd)).toEqual(WORKER_COMMAND);
  });

  it("run compose's own setup scripts, which take the database's address and the schema files from the environment", () => {
    const schema = setupScript(compose, 'temporal-schema-setup');
    for (const variable of ['SQL_HOST', 'SQL_PORT', 'TEMPORAL_SCHEMA_DIR']) {
      expect(schema.script).toContain(`$${variable}`);
      expect(schema.environment[variable]).toBeTruthy();
    }
    expect(schema.script).not.toMatch(/--ep postgresql|\/etc\/temporal\/schema/);
    const namespace = setupScript(compose, 'temporal-create-namespace');
    expect(namespace.script).toContain('$TEMPORAL_ADDRESS');
  });

  it("create the conversation store's database in the schema setup, where the workers' URL points", () => {
    const database = new URL(environmentOf(compose.services.worker!).AGENT_CONVERSATION_STORE!).pathname.slice(1);
    expect(setupScript(compose, 'temporal-schema-setup').script).toMatch(new RegExp(`--db ${database} create\\b`));
  });

  it('open the Web UI on the namespace the workers use', () => {
    expect(uiDefaultNamespace(compose)).toBe(environmentOf(compose.services.worker!).TEMPORAL_NAMESPACE);
  });
});
