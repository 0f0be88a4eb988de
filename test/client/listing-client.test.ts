// Every listing of runs, against the dev server, when the namespace holds a run whose memo another key
// encrypted: the console's run list and `agentctl replay --query` must not fail on it, as `costs`,
// `list` and `pending` failed on it before `listingClient` (CI met "Unknown encoding: binary/encrypted").
import type { Payload, PayloadCodec } from '@temporalio/common';
import { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_RUN_WORKFLOW_TYPE } from '../../src/contract/agent-run-api';
import { consoleRunsQuery, listRuns as consoleRuns } from '../../src/console/runs/run-list';
import { listRuns as replayRuns } from '../../src/client/replay/replay-bulk';
import { newClient, uniqueId } from '../support/temporal';

/** Seals every payload under an encoding no converter knows, as a codec with a key the reader lacks does. */
const sealing: PayloadCodec = {
  encode: async (payloads: Payload[]) => payloads.map((p) => ({ metadata: { encoding: new TextEncoder().encode('binary/encrypted') }, data: p.data })),
  decode: async (payloads: Payload[]) => payloads,
};

/** Asks until visibility has the run (the dev server's visibility trails the start by a moment). */
async function eventually<T>(ask: () => Promise<T[]>, found: (rows: T[]) => boolean): Promise<T[]> {
  const until = Date.now() + 20_000;
  for (;;) {
    const rows = await ask();
    if (found(rows) || Date.now() > until) return rows;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('listings in a namespace holding a run whose memo this client cannot read', () => {
  let plain: Client;
  let workflowId: string;
  let terminate: () => Promise<unknown>;

  beforeAll(async () => {
    plain = await newClient();
    const sealed = new Client({ connection: plain.connection, dataConverter: { payloadCodecs: [sealing] } });
    workflowId = uniqueId('sealed-memo');
    // No worker polls this queue: the run only has to exist, with its sealed memo, while it is listed.
    const handle = await sealed.workflow.start(AGENT_RUN_WORKFLOW_TYPE, { taskQueue: uniqueId('nobody'), workflowId, args: [{}], memo: { user: 'someone', replayOf: 'x' } });
    terminate = () => handle.terminate('test over');
  });

  afterAll(async () => {
    await terminate?.();
    await plain?.connection.close();
  });

  it("the console's run list shows the run", async () => {
    const rows = await eventually(() => consoleRuns(plain, { query: consoleRunsQuery(`WorkflowId = '${workflowId}'`), limit: 10 }), (r) => r.length > 0);
    expect(rows.map((r) => r.workflowId)).toEqual([workflowId]);
  });

  it('a bulk replay lists the run, to report it as not replayed rather than fail the whole query', async () => {
    const ids = await eventually(() => replayRuns(plain, `WorkflowId = '${workflowId}'`, 10), (r) => r.length > 0);
    expect(ids).toEqual([workflowId]);
  });
});
