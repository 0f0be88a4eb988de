// Helpers for tests that talk to the shared Temporal dev server started by global-setup.ts.
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { inject } from 'vitest';

/** The shared server's address; TEMPORAL_TEST_ADDRESS covers runs without the global setup. */
export function temporalAddress(): string {
  const address = inject('temporalAddress') || process.env.TEMPORAL_TEST_ADDRESS;
  if (!address) {
    throw new Error('No Temporal server for tests: run through vitest.config.ts or set TEMPORAL_TEST_ADDRESS');
  }
  return address;
}

/** A connected client; close it with `await client.connection.close()` in `afterAll`. */
export async function newClient(namespace = 'default'): Promise<Client> {
  const connection = await Connection.connect({ address: temporalAddress() });
  return new Client({ connection, namespace });
}

/**
 * Workflow ids and task queues must not collide: test files share one server and its history
 * outlives each test, so a reused id would meet the previous run's workflow.
 */
export function uniqueId(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}
