// Reads the committed replay fixtures (test/fixtures/histories/<release>/<scenario>.json).
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { temporal } from '@temporalio/proto';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';

export const HISTORIES_ROOT = path.join(__dirname, '..', 'fixtures', 'histories');

/** Every fixture as `<release>/<scenario>.json`, relative to HISTORIES_ROOT. */
export function listFixtures(): string[] {
  return readdirSync(HISTORIES_ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(path.join(HISTORIES_ROOT, d.name)).filter((f) => f.endsWith('.json')).map((f) => `${d.name}/${f}`));
}

export interface ReplayFixture {
  history: temporal.api.history.v1.IHistory;
  /**
   * The workflow id the history ran under. Replay must use it: a run derives ids from its own (a
   * sub-agent's child workflow id is `<parent id>/sub-<call id>`), and a different id is itself a
   * nondeterminism. Histories exported before the server recorded it get a stand-in.
   */
  workflowId: string;
}

export function loadFixture(fixture: string): ReplayFixture {
  const history = historyFromJSON(JSON.parse(readFileSync(path.join(HISTORIES_ROOT, fixture), 'utf8')));
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  return { history, workflowId: started?.workflowId || `replay-${fixture}` };
}
