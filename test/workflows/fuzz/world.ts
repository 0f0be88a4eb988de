// What every schedule of one process shares: the fake Messages API, the workflow bundle, the canary
// ledger, the audit folder, the conversation store (as a shared store would be across workers), and
// one worker that serves every schedule that does not restart its own.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, Runtime, type WorkflowBundle } from '@temporalio/worker';
import { MemoryConversationStore } from '../../../src/runtime/conversation/conversation-store';
import { createAgentWorker, WORKFLOWS_PATH, type AgentWorker } from '../../../src/runtime/worker-setup/create-agent-worker';
import { startFakeAnthropic, type FakeAnthropic } from '../../../src/testing/scripted-model';
import { CanaryLedger, canaryTools } from './canaries';
import { fuzzAgents } from './model-script';

/** A worker polling one task queue; `stop` shuts it down and closes its connections. */
export interface RunningWorker {
  taskQueue: string;
  stop(): Promise<void>;
}

export class FuzzWorld {
  private constructor(
    readonly address: string,
    readonly fake: FakeAnthropic,
    readonly workflowBundle: WorkflowBundle,
    readonly ledger: CanaryLedger,
    private readonly dirs: { root: string; workspace: string; audit: string; heads: string },
    private readonly conversations: MemoryConversationStore,
    /** The harness's own client: it outlives every worker, as a user's client would. */
    readonly client: Client,
  ) {}

  /** The worker every schedule without restarts shares. */
  shared!: RunningWorker;

  static async open(address: string, workflowBundle?: WorkflowBundle): Promise<FuzzWorld> {
    try {
      // Worker chatter at INFO would bury the report; warnings and errors still show.
      Runtime.install({ logger: new DefaultLogger('WARN') });
    } catch {
      // Already installed in this process.
    }
    const root = await mkdtemp(path.join(tmpdir(), 'durable-agent-fuzz-'));
    const dirs = { root, workspace: path.join(root, 'workspace'), audit: path.join(root, 'audit'), heads: path.join(root, 'heads') };
    await Promise.all([mkdir(dirs.workspace), mkdir(dirs.audit), mkdir(dirs.heads)]);
    const [fake, bundle] = await Promise.all([startFakeAnthropic(), workflowBundle ?? bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('WARN') })]);
    const client = new Client({ connection: await Connection.connect({ address }) });
    const world = new FuzzWorld(address, fake, bundle, new CanaryLedger(dirs.audit), dirs, new MemoryConversationStore(), client);
    world.shared = await world.startWorker(`fuzz-${randomUUID().slice(0, 8)}`, 'shared');
    return world;
  }

  get auditDir(): string {
    return this.dirs.audit;
  }

  /**
   * Starts a worker on `taskQueue` that writes the audit log `<auditName>.log` (one writer per file:
   * a restarted worker of a schedule reopens its predecessor's log once that one has closed it).
   */
  async startWorker(taskQueue: string, auditName: string): Promise<RunningWorker> {
    const agentWorker: AgentWorker = await createAgentWorker({
      address: this.address,
      taskQueue,
      workspaceRoot: this.dirs.workspace,
      env: { ANTHROPIC_API_KEY: 'fuzz', ANTHROPIC_BASE_URL: this.fake.baseUrl, AGENT_AUDIT_HEAD_DIR: this.dirs.heads },
      auditLog: path.join(this.dirs.audit, `${auditName}.log`),
      workflowBundle: this.workflowBundle,
      agents: fuzzAgents,
      tools: canaryTools(this.ledger),
      conversations: this.conversations,
      // A restart should not wait for in-flight calls: the next worker takes over what they leave.
      workerOptions: { shutdownGraceTime: '500 milliseconds' },
    });
    const running = agentWorker.worker.run();
    let stopped: Promise<void> | undefined;
    return {
      taskQueue,
      stop: () =>
        (stopped ??= (async () => {
          agentWorker.worker.shutdown();
          await running.catch(() => undefined);
          await agentWorker.close();
        })()),
    };
  }

  async close(): Promise<void> {
    await this.shared?.stop();
    await this.client.connection.close();
    await this.fake.close();
    await rm(this.dirs.root, { recursive: true, force: true });
  }
}
