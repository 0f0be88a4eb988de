// The order `vitest run` starts test files in: within each project (vitest runs them one after the
// other), new files first, then the longest first, by the durations in test/support/file-durations.json
// (`npm run test:durations` refreshes it from the last run here). vitest orders files so from its own
// record of the last run, which a fresh clone (CI) has not got: it then starts the largest files first,
// and with four files at a time a long file that starts late is the suite's tail.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export class DurationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const table = JSON.parse(readFileSync(path.join(root, 'test', 'support', 'file-durations.json'), 'utf8')) as Record<string, number>;
    const durationOf = (spec: TestSpecification) => table[`${spec.project.name}:${path.relative(root, spec.moduleId).split(path.sep).join('/')}`] ?? Number.POSITIVE_INFINITY;
    return [...files].sort((a, b) => {
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      const [da, db] = [durationOf(a), durationOf(b)];
      return da === db ? 0 : db > da ? 1 : -1;
    });
  }
}
