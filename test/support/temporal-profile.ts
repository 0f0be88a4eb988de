// A Temporal CLI config file (TOML) for tests of profile selection.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** A Temporal CLI config file (TOML) with a default and a "staging" profile. */
export function profileFile(staging: { address: string; namespace: string; extra?: string }): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'temporal-config-')), 'temporal.toml');
  writeFileSync(
    file,
    [
      '[profile.default]',
      'address = "127.0.0.1:1"',
      '',
      '[profile.staging]',
      `address = "${staging.address}"`,
      `namespace = "${staging.namespace}"`,
      staging.extra ?? '',
    ].join('\n'),
  );
  return file;
}
