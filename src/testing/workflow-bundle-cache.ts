// The workflow bundle, kept on disk between test runs. Webpack takes seconds to bundle the workflows
// (most of a test environment's start), and their code changes only when durable-agent or a package
// the bundle holds changes. So a bundle is stored with the size and time of every file it was made
// from (read from its source map, plus each package's package.json), and reused while all of them
// are unchanged: a rebuilt checkout, an `npm install` or a linked copy makes a fresh one.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { bundleWorkflowCode, DefaultLogger, type WorkflowBundle } from '@temporalio/worker';
import { WORKFLOWS_PATH } from '../runtime/worker-setup/workflow-bundle';
import { cacheRoot } from './install-temporal-cli';

/** A file the bundle was made from, with its size and modification time then (-1 if it did not exist). */
type FileStamp = [file: string, size: number, mtimeMs: number];

async function stampOf(file: string): Promise<FileStamp> {
  try {
    const { size, mtimeMs } = await stat(file);
    return [file, size, mtimeMs];
  } catch {
    return [file, -1, -1];
  }
}

/**
 * The files a bundle came from: the sources of its inline source map (Temporal's bundler writes one,
 * with absolute paths, at the end of the code) and the package.json of each package among them.
 */
function inputsOf(code: string): string[] {
  const inline = /\/\/# sourceMappingURL=data:application\/json;[^,]*base64,([A-Za-z0-9+/=]+)\s*$/.exec(code);
  const map = inline ? (JSON.parse(Buffer.from(inline[1]!, 'base64').toString('utf8')) as { sources?: string[] }) : {};
  const sources = (map.sources ?? []).filter((source) => path.isAbsolute(source));
  const manifests = new Set<string>([require.resolve('@temporalio/worker/package.json')]);
  for (const source of sources) {
    const at = source.lastIndexOf(`${path.sep}node_modules${path.sep}`);
    if (at < 0) continue;
    const rest = source.slice(at + '/node_modules/'.length).split(path.sep);
    const name = rest[0]!.startsWith('@') ? rest.slice(0, 2) : rest.slice(0, 1);
    manifests.add(path.join(source.slice(0, at), 'node_modules', ...name, 'package.json'));
  }
  return [...sources, ...manifests];
}

/**
 * durable-agent's workflow bundle (without workflow interceptors), from the per-user cache when every
 * file it was made from is unchanged, else bundled now and stored for the next run. Two processes that
 * bundle at once each write a whole file and rename it into place: the last one stays.
 */
export async function cachedWorkflowBundle(env: NodeJS.ProcessEnv = process.env): Promise<WorkflowBundle> {
  const folder = path.join(cacheRoot(env), 'workflow-bundles');
  // One entry per copy of durable-agent (a checkout, each project's node_modules).
  const key = createHash('sha256').update(WORKFLOWS_PATH).digest('hex').slice(0, 16);
  const codeFile = path.join(folder, `${key}.js`);
  const stampsFile = path.join(folder, `${key}.json`);
  try {
    const stamps = JSON.parse(await readFile(stampsFile, 'utf8')) as FileStamp[];
    const now = await Promise.all(stamps.map(([file]) => stampOf(file)));
    if (stamps.length > 0 && now.every((stamp, i) => stamp[1] === stamps[i]![1] && stamp[2] === stamps[i]![2])) {
      return { code: await readFile(codeFile, 'utf8') };
    }
  } catch {
    // No usable entry: bundle below.
  }
  const bundle = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('WARN') });
  const inputs = inputsOf(bundle.code);
  // Without its sources a bundle could not be told stale: it is used once, not stored.
  if (!inputs.some((file) => file.startsWith(path.dirname(path.dirname(WORKFLOWS_PATH))))) return { code: bundle.code };
  const stamps = await Promise.all(inputs.map(stampOf));
  await mkdir(folder, { recursive: true });
  const suffix = `.${process.pid}.${Date.now()}.tmp`;
  // The code first: an entry is only read through its stamps, written last.
  await writeFile(codeFile + suffix, bundle.code);
  await rename(codeFile + suffix, codeFile);
  await writeFile(stampsFile + suffix, JSON.stringify(stamps));
  await rename(stampsFile + suffix, stampsFile);
  return { code: bundle.code };
}
