// `runCosts` against the dev server when the namespace holds a run whose memo another key encrypted:
// the listing must not fail on it (a CI run met "Unknown encoding: binary/encrypted" in `agentctl costs`).
import type { Payload, PayloadCodec } from '@temporalio/common';
import { Client } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { AGENT_RUN_WORKFLOW_TYPE } from '../../src/contract/agent-run-api';
import { runCosts } from '../../src/client/run-costs';
import { newClient, uniqueId } from '../support/temporal';

/** Seals every payload under an encoding no converter knows, as a codec with a key the reader lacks does. */
const sealing: PayloadCodec = {
  encode: async (payloads: Payload[]) => payloads.map((p) => ({ metadata: { encoding: new TextEncoder().encode('binary/encrypted') }, data: p.data })),
  decode: async (payloads: Payload[]) => payloads,
};

describe('runCosts', () => {
  it('lists a namespace holding a run whose memo it cannot read, counting that run under an unknown user', async () => {
    const plain = await newClient();
    const sealed = new Client({ connection: plain.connection, dataConverter: { payloadCodecs: [sealing] } });
    const since = new Date(Date.now() - 1000);
    // No worker polls this queue: the run only has to exist, with its sealed memo, while it is listed.
    const handle = await sealed.workflow.start(AGENT_RUN_WORKFLOW_TYPE, { taskQueue: uniqueId('nobody'), workflowId: uniqueId('sealed-memo'), args: [{}], memo: { user: 'someone' } });
    try {
      const costs = await runCosts(plain, { by: 'user', since });
      expect(costs.groups.find((g) => g.key === '(unknown user)')?.runs).toBeGreaterThanOrEqual(1);
    } finally {
      await handle.terminate('test over');
      await plain.connection.close();
    }
  });
});
