// Reads the committed replay fixtures (test/fixtures/histories/<release>/<scenario>.json).
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { temporal } from '@temporalio/proto';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker, type ReplayWorkerOptions } from '@temporalio/worker';

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

/**
 * Replays fixtures one after another on one replay worker (Worker.runReplayHistories, which
 * runReplayHistory calls with a single history): a replay worker loads the 5 MB workflow bundle into
 * a fresh context, a second or more of CPU, while replaying one history takes a fraction of that.
 * Returns each fixture's replay error (a DeterminismViolationError or ReplayError, the one
 * runReplayHistory would throw), or undefined where it replayed.
 */
export async function replayFixtures(options: ReplayWorkerOptions, fixtures: readonly string[]): Promise<Map<string, Error | undefined>> {
  const results = new Map<string, Error | undefined>();
  const names = [...new Set(fixtures)];
  const histories = names.map((name) => loadFixture(name));
  let next = 0;
  for await (const { error } of Worker.runReplayHistories(options, histories)) results.set(names[next++] ?? '(a result beyond the batch)', error);
  return results;
}

/** What replaying `fixture` gave in a batch of `replayFixtures`: resolves if it replayed, rejects with its error. */
export async function replayedIn(batch: Promise<Map<string, Error | undefined>>, fixture: string): Promise<void> {
  const results = await batch;
  if (!results.has(fixture)) throw new Error(`${fixture} was not replayed in its batch`);
  const error = results.get(fixture);
  if (error) throw error;
}
