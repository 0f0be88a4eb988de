/**
 * Every environment variable the project reads, in one list: the README's configuration table is
 * generated from it (`npm run settings:table`), and an unknown `AGENT_*` variable is checked against
 * it for a "did you mean". The names are a contract with deployments: add aliases, never rename.
 * What the worker does with each one is parsed in worker-settings.ts.
 */
export interface SettingSpec {
  /** The variable, or for a family the shared prefix ending in `*` (TEMPORAL_TLS*). */
  name: string;
  /** Who reads it: the worker, the clients (agentctl, the console), `npm start` only, or the testing kit. */
  readBy: 'worker' | 'client' | 'worker, client' | 'npm start' | 'durable-agent/testing';
  default: string;
  meaning: string;
  /** Printed masked in the start banner. */
  secret?: boolean;
}

export const SETTINGS: readonly SettingSpec[] = [
  { name: 'TEMPORAL_ADDRESS', readBy: 'worker, client', default: '`localhost:7233`', meaning: 'Temporal frontend' },
  { name: 'TEMPORAL_NAMESPACE', readBy: 'worker, client', default: '`default`', meaning: 'namespace' },
  { name: 'TEMPORAL_PROFILE', readBy: 'worker, client', default: '(none)', meaning: 'the standard Temporal connection profiles and settings, read by `@temporalio/envconfig` (with `TEMPORAL_CONFIG_FILE`, `TEMPORAL_API_KEY`, `TEMPORAL_TLS*`, `TEMPORAL_GRPC_META_*`; Temporal Cloud: see docs/guides/deploy.md)' },
  { name: 'TEMPORAL_CONFIG_FILE', readBy: 'worker, client', default: '(none)', meaning: 'the Temporal profiles file (see `TEMPORAL_PROFILE`)' },
  { name: 'TEMPORAL_API_KEY', readBy: 'worker, client', default: '(none)', meaning: 'API key for Temporal Cloud', secret: true },
  { name: 'TEMPORAL_TLS*', readBy: 'worker, client', default: '(none)', meaning: 'TLS settings of the Temporal connection (see `@temporalio/envconfig`)' },
  { name: 'TEMPORAL_TASK_QUEUE', readBy: 'worker, client', default: '`agents`', meaning: 'task queue of the worker and the client' },
  { name: 'AGENT_DEPLOYMENT_NAME', readBy: 'worker, client', default: '(none: an unversioned worker)', meaning: 'the Temporal worker deployment this worker joins (Worker Versioning; needs `AGENT_BUILD_ID`; runs are PINNED to the build that started them; see docs/guides/upgrading.md); `agentctl deploy status` reads it as its default deployment' },
  { name: 'AGENT_BUILD_ID', readBy: 'worker', default: '(none)', meaning: "this worker's build within `AGENT_DEPLOYMENT_NAME` (a git commit, an image tag); set both or neither" },
  { name: 'ANTHROPIC_API_KEY', readBy: 'worker', default: '(none)', meaning: 'key for the Messages API', secret: true },
  { name: 'ANTHROPIC_BASE_URL', readBy: 'worker', default: "the SDK's default", meaning: 'a compatible endpoint (the tests point it at a local fake)' },
  { name: 'AGENT_WORKSPACE', readBy: 'worker', default: '`./workspace`', meaning: 'the folder tools may touch' },
  { name: 'AGENT_CONFIG', readBy: 'worker', default: '(none)', meaning: 'a YAML or JSON file of agents and MCP servers (see docs/guides/ecosystem.md)' },
  { name: 'AGENT_MODEL_FAST', readBy: 'worker', default: '`claude-haiku-5-5`', meaning: 'model id of the `fast` tier' },
  { name: 'AGENT_MODEL_BALANCED', readBy: 'worker', default: '`claude-sonnet-5-5`', meaning: 'model id of the `balanced` tier' },
  { name: 'AGENT_MODEL_POWERFUL', readBy: 'worker', default: '`claude-opus-5-5`', meaning: 'model id of the `powerful` tier' },
  { name: 'AGENT_MODEL_PROVIDER', readBy: 'worker', default: '`anthropic`', meaning: 'where model calls go: `anthropic`, `bedrock`, `vertex` or `foundry` (an agent may name its own `provider`; see docs/guides/providers.md)' },
  { name: 'AWS_REGION', readBy: 'worker', default: '(none)', meaning: "(bedrock) the Bedrock region; AWS credentials come from the AWS SDK's usual chain (`AWS_ACCESS_KEY_ID`, `AWS_PROFILE`, SSO, a role)" },
  { name: 'AWS_BEARER_TOKEN_BEDROCK', readBy: 'worker', default: '(none)', meaning: '(bedrock) a Bedrock API key, used instead of AWS credentials', secret: true },
  { name: 'ANTHROPIC_BEDROCK_BASE_URL', readBy: 'worker', default: '`https://bedrock-runtime.<region>.amazonaws.com`', meaning: '(bedrock) another Bedrock endpoint (a VPC endpoint, a gateway; the tests point it at a local fake)' },
  { name: 'AGENT_BEDROCK_MODELS', readBy: 'worker', default: 'the built-in names', meaning: '(bedrock) `claude-id=bedrock-model-id` pairs, comma-separated, e.g. an inference profile for a tier\'s model' },
  { name: 'CLOUD_ML_REGION', readBy: 'worker', default: '(none)', meaning: '(vertex) the Vertex AI region, or `global`; Google credentials come from Application Default Credentials' },
  { name: 'ANTHROPIC_VERTEX_PROJECT_ID', readBy: 'worker', default: "the credentials' project", meaning: '(vertex) the Google Cloud project' },
  { name: 'ANTHROPIC_VERTEX_BASE_URL', readBy: 'worker', default: "the region's endpoint", meaning: '(vertex) another Vertex AI endpoint' },
  { name: 'AGENT_VERTEX_MODELS', readBy: 'worker', default: 'the built-in names', meaning: '(vertex) `claude-id=vertex-model-name` pairs, comma-separated' },
  { name: 'ANTHROPIC_FOUNDRY_API_KEY', readBy: 'worker', default: '(none)', meaning: '(foundry) the Foundry key (or pass `modelCredentials.azureADTokenProvider` to `createAgentWorker`)', secret: true },
  { name: 'ANTHROPIC_FOUNDRY_RESOURCE', readBy: 'worker', default: '(none)', meaning: '(foundry) the Foundry resource name (`https://<resource>.services.ai.azure.com/anthropic/`)' },
  { name: 'ANTHROPIC_FOUNDRY_BASE_URL', readBy: 'worker', default: '(none)', meaning: '(foundry) the Foundry endpoint, instead of the resource name' },
  { name: 'AGENT_FOUNDRY_MODELS', readBy: 'worker', default: 'the built-in names', meaning: '(foundry) `claude-id=deployment-name` pairs, comma-separated' },
  { name: 'AGENT_CONVERSATION_STORE', readBy: 'worker', default: '`memory`', meaning: '`memory`, `dir:/shared/path` or `postgres://user:password@host:5432/database` for several workers (see docs/guides/long-runs.md, docs/guides/deploy.md); its password is never printed' },
  { name: 'AGENT_MODEL_IDLE_SECONDS', readBy: 'worker', default: '`120`', meaning: '(limits) a model stream that sends nothing this long is abandoned and retried' },
  { name: 'AGENT_PROMPT_CACHE', readBy: 'worker', default: '`5m`', meaning: '(limits) prompt caching: `5m` (or `on`), `1h` or `off`' },
  { name: 'AGENT_MAX_CACHED_WORKFLOWS', readBy: 'worker', default: "the SDK's default", meaning: "(limits) bound the worker's workflow cache (many parked runs; see docs/guides/deploy.md)" },
  { name: 'AGENT_METRICS_PORT', readBy: 'worker', default: 'off', meaning: "the worker's Prometheus endpoint, with the Temporal worker's metrics beside ours (see docs/guides/lifecycle.md)" },
  { name: 'AGENT_METRICS_HOST', readBy: 'worker', default: '`127.0.0.1`', meaning: 'the address the Prometheus endpoint listens on' },
  { name: 'AGENT_LIVE_RELAY', readBy: 'worker', default: '`127.0.0.1:0` (loopback, a free port)', meaning: "where the worker's live relay listens (`host:port`, a port, or `off`): it pushes a run's model text and status to watchers, who find it and a per-run token in the model call's heartbeat (see docs/guides/cli.md)" },
  { name: 'AGENT_LIVE_RELAY_URL', readBy: 'worker', default: 'where it listens', meaning: 'the base URL watchers are told to reach the relay at (e.g. behind NAT, or when it listens on `0.0.0.0`)' },
  { name: 'AGENT_WATCH_RELAY', readBy: 'client', default: '`on`', meaning: "`off`: `agentctl run`/`watch` never connect to a worker's relay and poll Temporal instead" },
  { name: 'AGENT_WATCH_POLL_MS', readBy: 'client', default: '`250`', meaning: "how often a watcher reads the model's text from the heartbeat when no relay is reachable" },
  { name: 'AGENT_TEMPORAL_METRICS_ADDRESS', readBy: 'worker', default: 'a free loopback port', meaning: "where the Temporal worker's own Prometheus metrics are served (`host:port`), forwarded by `AGENT_METRICS_PORT`" },
  { name: 'AGENT_ENCRYPTION_KEY', readBy: 'worker, client', default: 'off', meaning: 'AES-256-GCM payload encryption, `<key id>:<base64 32 bytes>` (see docs/guides/deploy.md; `agentctl codec-server` for the Web UI)', secret: true },
  { name: 'AGENT_ENCRYPTION_OLD_KEYS', readBy: 'worker, client', default: '(none)', meaning: 'older keys, comma-separated, that stay readable after a key change', secret: true },
  { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', readBy: 'worker, client', default: 'off', meaning: 'OpenTelemetry tracing over OTLP/HTTP: one trace per run, GenAI spans per model and tool call (see docs/guides/deploy.md); `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `OTEL_EXPORTER_OTLP_HEADERS` and `OTEL_SERVICE_NAME` as the standard says' },
  { name: 'AGENT_AUDIT_LOG', readBy: 'worker, client', default: 'a log per process in `AGENT_AUDIT_DIR`', meaning: "one file for the worker's hash-chained audit log (decisions and calls; one process only), or `off`; must be outside the workspace" },
  { name: 'AGENT_AUDIT_DIR', readBy: 'worker, client', default: '`./.agent-audit`', meaning: 'where each worker process writes its own audit log, `<host>-<pid>.log` (`agentctl audit verify` checks them all)' },
  { name: 'AGENT_AUDIT_HEAD_DIR', readBy: 'worker, client', default: '`~/.local/state/durable-agent/audit-heads`', meaning: "the second copy of every audit log's head, so a cut log is caught even with its `.head` deleted; keep it where whoever can write the logs cannot (see docs/guides/security.md)" },
  { name: 'AGENT_SANDBOX', readBy: 'worker', default: '`bwrap` when found, else `none`', meaning: 'how tool commands are isolated (see Sandbox)' },
  { name: 'AGENT_SANDBOX_USER', readBy: 'worker', default: '`nobody`', meaning: 'when the worker runs as root: the unprivileged user (name or `uid[:gid]`) tool commands run as; root is refused (see docs/guides/security.md)' },
  { name: 'AGENT_COMMAND_CGROUPS', readBy: 'worker', default: '`auto`', meaning: '`auto`: each tool command gets a cgroup of its own (`limits.totalMemoryBytes`, `totalProcesses`, `cpuCores`) where the worker finds a writable hierarchy; `off`: none is looked for, made or cleaned up, and only the rlimits hold (see docs/guides/security.md)' },
  { name: 'AGENT_SCAN_MAX_ENTRIES', readBy: 'worker', default: '`100000`', meaning: 'the most workspace entries (files, folders, links) the worker walks before a command that may write, to keep protected paths read-only and hand files to the sandbox user; past it, a command a rule let write is refused with a message saying so (one a person approved still runs), and commands that only read need no walk (see docs/guides/security.md)' },
  { name: 'AGENT_TOOL_ENV', readBy: 'worker', default: '(none)', meaning: 'comma-separated names of worker environment variables tool processes may see' },
  { name: 'AGENT_APPROVERS_FILE', readBy: 'worker', default: '(none)', meaning: 'approver registry: JSON name → Ed25519 public key (PEM); decisions must then be signed' },
  { name: 'AGENT_KEYS_DIR', readBy: 'client', default: '`~/.config/durable-agent/keys`', meaning: 'where `agentctl keys create` keeps private keys and where the CLI finds them' },
  { name: 'AGENT_CONSOLE_USERS', readBy: 'client', default: '(none)', meaning: "the approval console's users file (see docs/guides/console.md)" },
  { name: 'AGENT_CONSOLE_PORT', readBy: 'client', default: '`4280`', meaning: 'where the approval console listens' },
  { name: 'AGENT_CONSOLE_HOST', readBy: 'client', default: '`127.0.0.1`', meaning: 'the address the approval console listens on' },
  { name: 'AGENT_CONSOLE_HOST_NAMES', readBy: 'client', default: 'the listening host', meaning: 'comma-separated host names the console answers to, such as `console.example.com` behind a proxy (default off loopback: the host it listens on, or for `0.0.0.0` this machine\'s names and addresses)' },
  { name: 'TEMPORAL_UI_URL', readBy: 'client', default: '(none)', meaning: "the Temporal Web UI's base URL, for the console's links to a run" },
  { name: 'AGENT_MODEL_PRICES_FILE', readBy: 'client', default: '(none: built-in list-price estimates)', meaning: "JSON of model id → USD per million tokens (`input`, `output`, optional `cacheWrite`, `cacheRead`) for the console's cost estimate (see docs/guides/console.md)" },
  { name: 'AGENT_CODEC_TOKEN', readBy: 'client', default: '(none: one is made up and printed)', meaning: 'the bearer token `agentctl codec-server` asks of the Web UI (`--token` wins)', secret: true },
  { name: 'AGENT_CODEC_PORT', readBy: 'npm start', default: 'a free port', meaning: 'where `npm start` serves the codec server for its Web UI when `AGENT_ENCRYPTION_KEY` is set' },
  { name: 'TEMPORAL_CLI_PATH', readBy: 'durable-agent/testing', default: "this project's own copy, else `temporal` on PATH", meaning: 'the `temporal` CLI whose dev server `startDevServer` and `startAgentTestEnvironment` run' },
  { name: 'START_TEMPORAL_PORT', readBy: 'npm start', default: '`7233`', meaning: "the embedded Temporal server's gRPC port" },
  { name: 'START_UI_PORT', readBy: 'npm start', default: '`8233`', meaning: "the embedded Temporal server's Web UI port" },
  { name: 'START_DB_FILE', readBy: 'npm start', default: '`./.temporal/dev.db`', meaning: "the embedded server's database file, where runs are kept across starts" },
];

/** Names a variable may have (families match by prefix), for the unknown-variable check. */
export function isKnownSetting(name: string): boolean {
  return SETTINGS.some((s) => (s.name.endsWith('*') ? name.startsWith(s.name.slice(0, -1)) : s.name === name));
}
