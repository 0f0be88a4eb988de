// The console's HTTP application. Hono, because it is small, maintained, has no dependencies, and
// ships what the console needs (cookies, secure headers, server-sent events) as built-in middleware;
// its routes take standard Request objects, so tests call `app.request()` without a socket.
import { WorkflowNotFoundError } from '@temporalio/client';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DecisionRefusedError, InvalidRunRequestError, NoWorkerAnsweredError, RunNotForkableError, RunNotResumableError, TemporalUnreachableError, UnknownScheduleError } from '../client/errors';
import { ConsoleRequestError } from './errors';
import type { ConsoleDeps, ConsoleEnv } from './http/console-context';
import { addApiRoutes } from './http/api-routes';
import { addAssetRoutes } from './http/asset-routes';
import { addAuthRoutes, addClaimRoute, addLogoutRoute } from './http/auth-routes';
import { addEventRoutes } from './http/event-routes';
import { addScheduleRoutes } from './http/schedule-routes';
import { appShell, IMPORT_MAP_HASH } from './http/pages';
import { hostCheck, noStore, requireSession, securityHeaders } from './http/security';

/** Named errors a person can act on, and the status each answers with; anything else is a 500. */
const ERROR_STATUS: [new (...args: never[]) => Error, ContentfulStatusCode][] = [
  [ConsoleRequestError, 400],
  [InvalidRunRequestError, 400],
  [WorkflowNotFoundError, 404],
  [UnknownScheduleError, 404],
  [RunNotResumableError, 409],
  [RunNotForkableError, 409],
  [DecisionRefusedError, 403],
  [TemporalUnreachableError, 503],
  [NoWorkerAnsweredError, 504],
];

export function createConsoleApp(deps: ConsoleDeps, options: { localUser?: string } = {}): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  app.use('*', securityHeaders(IMPORT_MAP_HASH), hostCheck(deps.allowedHosts), noStore);
  addAssetRoutes(app);
  // Browsers ask for it on every page; an empty answer keeps their consoles free of 404s.
  app.get('/favicon.ico', (c) => c.body(null, 204));
  addAuthRoutes(app, deps, options.localUser);
  app.use('/', requireSession(deps));
  app.use('/api/*', requireSession(deps));
  app.get('/', (c) => c.html(appShell()));
  addLogoutRoute(app, deps);
  addClaimRoute(app);
  addApiRoutes(app, deps);
  addEventRoutes(app, deps);
  addScheduleRoutes(app, deps);
  app.notFound((c) => c.json({ error: 'Not found' }, 404));
  app.onError((error, c) => {
    const status = ERROR_STATUS.find(([type]) => error instanceof type)?.[1] ?? 500;
    const message = error instanceof WorkflowNotFoundError ? `Unknown run: ${error.workflowId ?? ''}` : error.message;
    return c.json({ error: message }, status);
  });
  return app;
}
