// The client takes the worker's connection options (address, namespace, taskQueue, tls, apiKey, env),
// refuses the ones nothing reads, and still reads an environment object passed the older way.
import { describe, expect, it } from 'vitest';
import { AgentClient } from '../../src/client/agent-client';
import { connectClient } from '../../src/client/connect';
import { TemporalUnreachableError } from '../../src/client/errors';
import { UnknownOptionError } from '../../src/runtime/config/connect-options';
import { temporalAddress } from '../support/temporal';

describe('AgentClient.connect(options)', () => {
  it('uses the address and task queue it is given over the environment', async () => {
    const client = await AgentClient.connect({ taskQueue: 'parrots', address: temporalAddress(), env: { TEMPORAL_ADDRESS: '127.0.0.1:1', TEMPORAL_TASK_QUEUE: 'agents' } });
    try {
      expect(client.taskQueue).toBe('parrots');
      // Connected to the given address, not the environment's unreachable one.
      await expect(client.temporal.workflowService.getSystemInfo({})).resolves.toBeDefined();
    } finally {
      await client.close();
    }
  });

  it('refuses an option nothing reads, naming the one meant', async () => {
    // @ts-expect-error: `taskQueu` is not an option; TypeScript refuses it too.
    await expect(AgentClient.connect({ taskQueu: 'parrots' })).rejects.toThrow(new UnknownOptionError('AgentClient.connect() does not take "taskQueu" (did you mean "taskQueue"?). It takes: address, namespace, taskQueue, tls, apiKey, env.'));
    // @ts-expect-error: an environment variable among options is neither shape.
    await expect(AgentClient.connect({ taskQueue: 'parrots', TEMPORAL_ADDRESS: 'x:7233' })).rejects.toThrow(UnknownOptionError);
  });

  it('still reads an environment object passed as the argument (the older call shape)', async () => {
    const client = await AgentClient.connect({ TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: 'from-env' });
    try {
      expect(client.taskQueue).toBe('from-env');
    } finally {
      await client.close();
    }
    await expect(AgentClient.connect({ TEMPORAL_ADDRESS: '127.0.0.1:1' })).rejects.toThrow(TemporalUnreachableError);
  });
});

describe('connectClient()', () => {
  it('reads the environment when called with no settings, as it did in its first release', async () => {
    const previous = process.env.TEMPORAL_ADDRESS;
    process.env.TEMPORAL_ADDRESS = temporalAddress();
    try {
      const { client, close } = await connectClient();
      try {
        await expect(client.workflowService.getSystemInfo({})).resolves.toBeDefined();
      } finally {
        await close();
      }
    } finally {
      if (previous === undefined) delete process.env.TEMPORAL_ADDRESS;
      else process.env.TEMPORAL_ADDRESS = previous;
    }
  });
});
