// The page's files: our own modules and stylesheet from src/console/public, and the UI library
// (preact, its hooks, htm) from node_modules, so the page needs no build step and no network.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Hono } from 'hono';
import type { ConsoleEnv } from './console-context';
import { SAFE_TEXT_MODULE } from './safe-text-module';

const PUBLIC_DIR = path.join(__dirname, '..', 'public');

/** Only these vendor files are served, each from where the package itself says it is. */
const VENDOR: Record<string, () => string> = {
  'preact.mjs': () => require.resolve('preact'),
  'preact-hooks.mjs': () => require.resolve('preact/hooks'),
  'htm.mjs': () => path.join(path.dirname(require.resolve('htm')), 'htm.mjs'),
};

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

async function serveFile(file: string): Promise<Response> {
  const body = await readFile(file).catch(() => undefined);
  if (!body) return new Response('Not found', { status: 404 });
  // no-cache (not no-store): the browser may keep a copy but checks it, so an upgrade shows at once.
  return new Response(body, { headers: { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' } });
}

export function addAssetRoutes(app: Hono<ConsoleEnv>): void {
  // Generated from the CLI's escaping rule, so the page and the terminal escape the same characters.
  app.get('/assets/safe-text.js', () => new Response(SAFE_TEXT_MODULE, { headers: { 'content-type': TYPES['.js']!, 'cache-control': 'no-cache' } }));
  // A strict name pattern: no slashes or dots beyond the extension, so no path can leave the folder.
  app.get('/assets/:file{[a-z0-9-]+\\.(js|css)}', (c) => serveFile(path.join(PUBLIC_DIR, c.req.param('file'))));
  app.get('/vendor/:file', (c) => {
    const resolve = VENDOR[c.req.param('file')];
    return resolve ? serveFile(resolve()) : c.text('Not found', 404);
  });
}
