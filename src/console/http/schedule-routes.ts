// The schedule list and its three buttons. Behind the same session and CSRF checks as every other
// /api route (see security.ts); each change is scoped to the console's task queue.
import type { Hono } from 'hono';
import { pauseAs, scheduleNameParam, scheduleRows, triggerAs, unpauseAs } from '../actions/schedules';
import type { ConsoleDeps, ConsoleEnv } from './console-context';

export function addScheduleRoutes(app: Hono<ConsoleEnv>, deps: ConsoleDeps): void {
  app.get('/api/schedules', async (c) => c.json({ schedules: await scheduleRows(deps.client, deps.taskQueue) }));

  app.post('/api/schedules/:name/pause', async (c) => {
    return c.json(await pauseAs(deps.client, c.get('session').user, scheduleNameParam(c.req.param('name')), deps.taskQueue));
  });

  app.post('/api/schedules/:name/unpause', async (c) => {
    return c.json(await unpauseAs(deps.client, c.get('session').user, scheduleNameParam(c.req.param('name')), deps.taskQueue));
  });

  app.post('/api/schedules/:name/trigger', async (c) => {
    const { status, body } = await triggerAs(deps.client, scheduleNameParam(c.req.param('name')), deps.taskQueue);
    deps.watcher.refreshNow();
    return c.json(body, status);
  });
}
