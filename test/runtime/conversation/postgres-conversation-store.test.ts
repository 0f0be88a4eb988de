// The PostgreSQL conversation store against a real, private PostgreSQL (Debian's server in a
// temporary folder on a free loopback port, started by the same launcher as `npm run cluster`; as
// root it runs as the `postgres` account), stopped and deleted afterwards. The last test runs a
// real workflow on the dev server across two workers that share nothing but the database.
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materialize } from '../../../src/runtime/activities/conversation-sync';
import type { ConversationMessage } from '../../../src/contract/messages';
import { CONVERSATION_TABLE, PostgresConversationStore } from '../../../src/runtime/conversation/postgres-conversation-store';
import { ConversationStoreUnavailableError } from '../../../src/contract/errors';
import { createAgentWorker } from '../../../src/runtime/worker-setup/create-agent-worker';
import { startPostgres, type PrivatePostgres } from '../../../scripts/cluster/postgres';
import { evidenceOf } from '../../cluster/support/drill-runs';
import { quietTemporalLogs, tempWorkspace, waitForApprovals, withAgentWorker } from '../../support/agent-run-harness';
import { useFakeModel } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { apiBlockPlan, expectBlocksKept } from '../../support/api-blocks';
import { stepScript, stepTool } from '../../support/step-script';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { temporalAddress, uniqueId } from '../../support/temporal';

const user = (content: string): ConversationMessage => ({ role: 'user', content });
const assistant = (text: string): ConversationMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });

describe('PostgresConversationStore', () => {
  const bed = useFakeModel();
  let postgres: PrivatePostgres;
  let url: string;
  const stores: PostgresConversationStore[] = [];
  const newStore = () => {
    const store = new PostgresConversationStore(url);
    stores.push(store);
    return store;
  };
  async function rowsOf(owner: string): Promise<{ key: string; tag: string }[]> {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(`SELECT key, tag FROM ${CONVERSATION_TABLE} WHERE owner = $1 ORDER BY version`, [owner])).rows;
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    postgres = await startPostgres({ host: '127.0.0.1' });
    await postgres.createDatabase('durable_agent');
    url = postgres.url('durable_agent');
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await postgres?.stop();
  });

  it('creates its table when several workers start at once', async () => {
    await Promise.all([newStore(), newStore(), newStore()].map((store) => store.prepare()));
    expect(await rowsOf('nobody')).toEqual([]);
  });

  it('gives back what another worker saved, keyed by run and key, with object keys in their original order', async () => {
    const tool = { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'write_file', input: { zeta: 1, alpha: 2 } }] } as ConversationMessage;
    await newStore().save('conv', { messages: [user('hi'), tool], tag: 'a1' }, 'run-1');
    await newStore().save('conv', { messages: [user('other run')], tag: 'b1' }, 'run-2');

    const loaded = await newStore().load('conv', 'run-1', 'a1');
    expect(loaded).toEqual({ messages: [user('hi'), tool], tag: 'a1' });
    expect(Object.keys((loaded!.messages[1]!.content as { input: object }[])[0]!.input)).toEqual(['zeta', 'alpha']);
    expect((await newStore().load('conv', 'run-2'))?.tag).toBe('b1');
    expect(await newStore().load('conv', 'run-3')).toBeUndefined();
  });

  it('still has the version the workflow expects after a dead attempt saved a newer one, so the retry does not miss', async () => {
    const store = newStore();
    const base = [user('task'), assistant('first reply')];
    await store.save('conv', { messages: base, tag: 'v1' }, 'run-kill');
    // The attempt that built on v1 saved its reply, then its worker died before Temporal heard back.
    await store.save('conv', { messages: [...base, user('result'), assistant('lost reply')], tag: 'v2-dead' }, 'run-kill');

    const retried = await materialize(newStore(), { key: 'conv', owner: 'run-kill', baseCount: 2, tag: 'v1', append: [user('result')] });
    expect(retried).toEqual([...base, user('result')]);
  });

  it('deletes versions older than the one the workflow asks for, and keeps newer ones', async () => {
    const store = newStore();
    for (const tag of ['p1', 'p2', 'p3']) await store.save('conv', { messages: [user(tag)], tag }, 'run-prune');
    await store.load('conv', 'run-prune', 'p2');
    expect((await rowsOf('run-prune')).map((row) => row.tag)).toEqual(['p2', 'p3']);
    // Without a tag it answers with the latest version, like the memory and folder stores.
    expect((await store.load('conv', 'run-prune'))?.tag).toBe('p3');
  });

  it("deletes a closed run's rows and no other run's", async () => {
    const store = newStore();
    await store.save('conv', { messages: [user('x')], tag: 'd1' }, 'run-closed');
    await store.save('summary', { messages: [user('y')], tag: 'd2' }, 'run-closed');
    await store.save('conv', { messages: [user('z')], tag: 'd3' }, 'run-open');
    await store.deleteRun('run-closed');
    expect(await rowsOf('run-closed')).toEqual([]);
    expect(await rowsOf('run-open')).toHaveLength(1);
  });

  it('says which database it could not reach, without the password', async () => {
    const unreachable = new PostgresConversationStore(`postgres://temporal:s3cret@127.0.0.1:1/durable_agent`, { connectionTimeoutMillis: 2_000 });
    stores.push(unreachable);
    const failure = await unreachable.load('conv', 'run-1').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConversationStoreUnavailableError);
    expect((failure as Error).message).toContain('postgres://temporal:***@127.0.0.1:1/durable_agent');
    expect((failure as Error).message).not.toContain('s3cret');
  });

  it('lets a second worker, sharing only the database, continue a run the first one started, and empties the table when it closes', async () => {
    const task = uniqueId('pg-store');
    bed.fake.script(task, [
      reply(toolCall('write_file', { path: 'a.txt', content: 'a' })),
      reply(toolCall('complete_task', { summary: 'done', status: 'success' })),
    ]);
    const env = { AGENT_CONVERSATION_STORE: url };
    const workspace = await tempWorkspace();
    // Worker A makes the first model call, which saves the conversation, and the run parks on the approval.
    // keepRuns: the parked run must outlive worker A.
    const { handle: handleA, taskQueue } = await withAgentWorker({ ...bed.harness(), env, workspace, keepRuns: true }, async ({ start, taskQueue }) => {
      const started = await start({ agent: 'general', task });
      await waitForApprovals(started);
      return { handle: started, taskQueue };
    });
    const owner = handleA.workflowId;
    expect((await rowsOf(owner)).length).toBeGreaterThan(0);

    // Worker A is gone (its memory with it); worker B, a new store on the same database, takes over.
    quietTemporalLogs();
    const workerB = await createAgentWorker({
      auditLog: false,
      address: temporalAddress(),
      taskQueue,
      workspaceRoot: workspace,
      workflowBundle: bed.harness().workflowBundle,
      env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: bed.fake.baseUrl, ...env },
    });
    // Worker A's client closed with it: talk to the run through worker B's.
    const handle = workerB.client.workflow.getHandle(owner);
    try {
      const result = await workerB.worker.runUntil(async () => {
        await handle.signal('approval', { callId: 'toolu_0_0', decision: 'approve' });
        return handle.result();
      });
      expect(result.status).toBe('completed');
      // The second model call found the conversation worker A saved: no miss, no resend of the whole conversation.
      expect((await evidenceOf(handle)).storeMisses).toBe(0);
    } finally {
      await workerB.close();
    }
    expect(bed.fake.requestsFor(task)).toHaveLength(2);
    expect(await rowsOf(owner)).toEqual([]);
    expect(bed.fake.errors).toEqual([]);
  });

  it("keeps the API's own blocks verbatim: a run whose replies think and search completes, every block sent back as it came", async () => {
    const task = 'Blocks drill: PostgreSQL store';
    bed.fake.script(task, stepScript(apiBlockPlan(2)));
    const thinker: AgentDefinitionInput = { name: 'pg-thinker', description: 'Thinks in steps.', modelTier: 'balanced', tools: ['step'], systemPrompt: 'You work in steps.', maxIterations: 10, thinking: { type: 'adaptive' } };
    await withAgentWorker({ ...bed.harness(), agents: [thinker], tools: [stepTool], conversations: newStore() }, async ({ start }) => {
      expect(await (await start({ agent: 'pg-thinker', task })).result()).toMatchObject({ status: 'completed', iterations: 4 });
    });
    expect(expectBlocksKept(bed.fake.requestsFor(task))).toBe(6);
    expect(bed.fake.errors).toEqual([]);
  });
});
