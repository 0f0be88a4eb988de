import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  COMPOSE_FILE,
  REPO_ROOT,
  createComposeValidator,
  dependenciesOf,
  environmentOf,
  loadComposeFile,
  parseComposeFile,
  scriptOf,
  type ComposeFile,
  type ComposeService,
  type ComposeValidator,
} from './compose-file';

// There is no Docker engine on our machines, so `docker compose config` cannot check the file:
// these tests validate it against the Compose Specification and pin down what the stack relies on.

let validate: ComposeValidator;
let compose: ComposeFile;

beforeAll(() => {
  validate = createComposeValidator();
  compose = loadComposeFile();
});

function service(name: string): ComposeService {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service "${name}"`);
  return found;
}

function servicesUsingImage(repository: string): [string, ComposeService][] {
  return Object.entries(compose.services).filter(([, svc]) => svc.image?.split(':')[0] === repository);
}

/** A copy of the file with one change, to show the validator catches it. */
function mutated(change: (copy: ComposeFile) => void): ComposeFile {
  const copy = structuredClone(compose);
  change(copy);
  return copy;
}

describe('docker-compose.yml', () => {
  it('is valid against the Compose Specification schema', () => {
    expect(validate(compose)).toEqual([]);
  });

  it('pins every image to an explicit tag other than latest', () => {
    for (const [name, svc] of Object.entries(compose.services)) {
      if (!svc.image) {
        expect(svc.build, `service ${name} has neither image nor build`).toBeDefined();
        continue;
      }
      const lastSegment = svc.image.split('/').pop()!;
      const tag = lastSegment.includes('@') ? undefined : lastSegment.split(':')[1];
      expect(tag, `service ${name} (${svc.image}) has no tag`).toBeTruthy();
      expect(tag, `service ${name} uses :latest`).not.toBe('latest');
    }
  });

  it('keeps PostgreSQL on a named volume behind a pg_isready healthcheck', () => {
    const postgres = service('postgresql');
    expect(postgres.image).toMatch(/^postgres:/);
    expect(scriptOf(postgres.healthcheck?.test)).toContain('pg_isready');
    const dataVolume = (postgres.volumes ?? []).find((volume) => String(volume).endsWith(':/var/lib/postgresql/data'));
    const volumeName = String(dataVolume).split(':')[0]!;
    expect(compose.volumes).toHaveProperty(volumeName);
  });

  it('creates both Temporal schemas with temporal-sql-tool once PostgreSQL is healthy', () => {
    const setups = servicesUsingImage('temporalio/admin-tools').filter(([, svc]) =>
      scriptOf(svc.command).includes('temporal-sql-tool'),
    );
    expect(setups).toHaveLength(1);
    const [setupName, setup] = setups[0]!;
    const script = scriptOf(setup.command);
    expect(script).toContain('--plugin postgres12');
    for (const database of ['temporal', 'temporal_visibility']) {
      for (const step of ['create', 'setup-schema', 'update-schema']) {
        expect(script).toMatch(new RegExp(`--db ${database} ${step}\\b`));
      }
    }
    expect(dependenciesOf(setup).postgresql?.condition).toBe('service_healthy');
    expect(dependenciesOf(service('temporal'))[setupName]?.condition).toBe('service_completed_successfully');
  });

  it('configures the Temporal server for PostgreSQL through its env vars', () => {
    const temporal = service('temporal');
    expect(temporal.image).toMatch(/^temporalio\/server:/);
    const env = environmentOf(temporal);
    expect(env).toMatchObject({ DB: 'postgres12', DB_PORT: '5432', POSTGRES_SEEDS: 'postgresql' });
    expect(env.POSTGRES_USER).toBeTruthy();
    expect(env.POSTGRES_PWD).toBeTruthy();
    expect(scriptOf(temporal.healthcheck?.test)).toContain('7233');
  });

  it('registers the AgentName and AgentStatus search attributes as Keyword, and AgentCostUsd as Double, before workers start', () => {
    const registrars = Object.entries(compose.services).filter(([, svc]) =>
      scriptOf(svc.command).includes('temporal operator search-attribute create'),
    );
    expect(registrars).toHaveLength(1);
    const [registrarName, registrar] = registrars[0]!;
    const script = scriptOf(registrar.command);
    expect(script).toContain('search-attribute create --name "$1" --type "$2"');
    expect(script).toMatch(/register AgentName Keyword\b/);
    expect(script).toMatch(/register AgentStatus Keyword\b/);
    expect(script).toMatch(/register AgentCostUsd Double\b/);
    expect(environmentOf(registrar).TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect(registrar.image).toMatch(/^temporalio\/admin-tools:/);
    expect(dependenciesOf(service('worker'))[registrarName]?.condition).toBe('service_completed_successfully');
  });

  it('builds the worker from this repository and points it at the temporal service', () => {
    const worker = service('worker');
    const context = typeof worker.build === 'string' ? worker.build : worker.build?.context;
    expect(context).toBe('.');
    expect(environmentOf(worker)).toMatchObject({
      TEMPORAL_ADDRESS: 'temporal:7233',
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_TASK_QUEUE: 'agents',
      AGENT_WORKSPACE: '/workspace',
    });
    expect(Object.keys(dependenciesOf(worker))).toContain('temporal');
    expect(worker.restart).toBeTruthy();
    const workspace = (worker.volumes ?? []).find((volume) => String(volume).endsWith(':/workspace'));
    expect(compose.volumes).toHaveProperty(String(workspace).split(':')[0]!);
  });

  it('passes the Anthropic key and Temporal settings through from the host environment', () => {
    const fromHost = parseComposeFile(readFileSync(COMPOSE_FILE, 'utf8'), {
      ANTHROPIC_API_KEY: 'sk-ant-test',
      TEMPORAL_NAMESPACE: 'agents-prod',
      TEMPORAL_TASK_QUEUE: 'agents-blue',
    });
    const workerEnv = environmentOf(fromHost.services.worker!);
    expect(workerEnv).toMatchObject({
      ANTHROPIC_API_KEY: 'sk-ant-test',
      TEMPORAL_NAMESPACE: 'agents-prod',
      TEMPORAL_TASK_QUEUE: 'agents-blue',
    });
    // The namespace the workers poll is the one that gets created and carries the search attributes.
    expect(environmentOf(fromHost.services['temporal-create-namespace']!).TEMPORAL_NAMESPACE).toBe('agents-prod');
  });

  it("keeps the workers' conversations in PostgreSQL, so replicas share them without a shared volume", () => {
    const worker = service('worker');
    const store = new URL(environmentOf(worker).AGENT_CONVERSATION_STORE!);
    expect([store.protocol, store.host, store.pathname]).toEqual(['postgres:', 'postgresql:5432', '/durable_agent']);
    expect(dependenciesOf(worker)['temporal-schema-setup']?.condition).toBe('service_completed_successfully');
    expect((worker.volumes ?? []).map(String).filter((volume) => volume.includes('conversations'))).toEqual([]);
  });

  it('lets the worker scale out with --scale', () => {
    const worker = service('worker');
    expect(worker.container_name).toBeUndefined();
    expect(worker.ports ?? []).toEqual([]);
  });

  it('publishes the frontend and UI ports on 127.0.0.1 only', () => {
    const published = Object.entries(compose.services).flatMap(([name, svc]) => (svc.ports ?? []).map((port) => [name, String(port)] as const));
    expect(published.map(([name]) => name).sort()).toEqual(['temporal', 'temporal-ui']);
    for (const [name, port] of published) expect(port, `${name} publishes ${port}`).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
  });

  it('creates the namespace with 168h retention unless TEMPORAL_NAMESPACE_RETENTION says otherwise', () => {
    const registrar = (file: ComposeFile) => environmentOf(file.services['temporal-create-namespace']!);
    expect(registrar(compose).NAMESPACE_RETENTION).toBe('168h');
    expect(registrar(loadComposeFile({ TEMPORAL_NAMESPACE_RETENTION: '720h' })).NAMESPACE_RETENTION).toBe('720h');
    expect(scriptOf(service('temporal-create-namespace').command)).toContain('--retention "$NAMESPACE_RETENTION"');
  });

  it('gives the worker 30 s to finish running activities when it is stopped', () => {
    const worker: ComposeService & { stop_grace_period?: string } = service('worker');
    expect(worker.stop_grace_period).toBe('30s');
  });

  it('serves the Temporal UI against the temporal service', () => {
    const [uiEntry] = servicesUsingImage('temporalio/ui');
    expect(uiEntry).toBeDefined();
    const ui = uiEntry![1];
    expect(environmentOf(ui).TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect((ui.ports ?? []).map(String).some((port) => /:(8080|8233)$/.test(port))).toBe(true);
  });

  it('bind-mounts only files that exist in the repository', () => {
    const binds = Object.values(compose.services)
      .flatMap((svc) => svc.volumes ?? [])
      .map((volume) => String(volume).split(':')[0]!)
      .filter((source) => source.startsWith('.'));
    for (const source of binds) {
      expect(existsSync(path.join(REPO_ROOT, source)), `${source} is mounted but missing`).toBe(true);
    }
  });
});

describe('the Compose schema validator', () => {
  it('rejects an unknown top-level key', () => {
    const errors = validate(mutated((copy) => (copy.servces = copy.services)));
    expect(errors).toContainEqual(
      expect.objectContaining({ keyword: 'additionalProperties', params: { additionalProperty: 'servces' } }),
    );
  });

  it('rejects ports given as a plain string', () => {
    const errors = validate(mutated((copy) => ((copy.services['temporal-ui'] as Record<string, unknown>).ports = 'abc')));
    expect(errors).toContainEqual(
      expect.objectContaining({ instancePath: '/services/temporal-ui/ports', keyword: 'type' }),
    );
  });

  it('rejects a depends_on condition Compose does not know', () => {
    const errors = validate(
      mutated((copy) => (copy.services.worker!.depends_on = { temporal: { condition: 'service_ready' } })),
    );
    expect(errors.some((error) => error.instancePath.startsWith('/services/worker/depends_on'))).toBe(true);
  });
});
