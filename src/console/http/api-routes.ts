// What the page can change: decisions, answers, budget raises, starting, cancelling, resuming and
// forking runs, and follow-up or steering messages. Bodies are JSON, validated with zod; answers are JSON.
import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { describeZodError } from '../../contract/describe-zod-error';
import { decideAs, DecisionRequestSchema, replyAs, ReplyRequestSchema, type ActionOutcome } from '../actions/decide';
import { approveAllAs, ApproveAllRequestSchema, ModeRequestSchema, setModeAs } from '../actions/run-approvals';
import { cancelRun, ResumeRequestSchema, resumeAs, startRunAs, StartRequestSchema } from '../actions/steer';
import { forkAs, ForkRequestSchema } from '../actions/fork';
import { raiseAs, RaiseRequestSchema } from '../actions/raise-budget';
import { ConsoleRequestError } from '../errors';
import type { ConsoleDeps, ConsoleEnv } from './console-context';

async function body<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  if (!(c.req.header('content-type') ?? '').startsWith('application/json')) throw new ConsoleRequestError('Send JSON (content-type: application/json).');
  const raw: unknown = await c.req.json().catch(() => {
    throw new ConsoleRequestError('The body is not valid JSON.');
  });
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ConsoleRequestError(`Invalid request:\n${describeZodError(parsed.error)}`);
  return parsed.data;
}

/** An outcome the person must see either way; only a refusal or a missing worker is an HTTP error. */
const OUTCOME_STATUS: Record<ActionOutcome['outcome'], ContentfulStatusCode> = { applied: 200, already_decided: 200, refused: 409, no_worker: 504 };

export function addApiRoutes(app: Hono<ConsoleEnv>, deps: ConsoleDeps): void {
  app.get('/api/session', (c) => c.json({ user: c.get('session').user }));

  app.post('/api/decisions', async (c) => {
    const outcome = await decideAs(deps.client, c.get('session').user, await body(c, DecisionRequestSchema));
    deps.watcher.refreshNow();
    return c.json(outcome, OUTCOME_STATUS[outcome.outcome]);
  });

  app.post('/api/replies', async (c) => {
    const outcome = await replyAs(deps.client, c.get('session').user, await body(c, ReplyRequestSchema));
    deps.watcher.refreshNow();
    return c.json(outcome, OUTCOME_STATUS[outcome.outcome]);
  });

  app.post('/api/budget-raises', async (c) => {
    const outcome = await raiseAs(deps.client, c.get('session').user, await body(c, RaiseRequestSchema));
    deps.watcher.refreshNow();
    return c.json(outcome, OUTCOME_STATUS[outcome.outcome]);
  });

  app.post('/api/runs', async (c) => {
    const started = await startRunAs(deps.client, c.get('session').user, await body(c, StartRequestSchema), deps.taskQueue);
    deps.watcher.refreshNow();
    return c.json(started, 201);
  });

  app.post('/api/runs/:id/cancel', async (c) => {
    const outcome = await cancelRun(deps.client, c.req.param('id'));
    deps.watcher.refreshNow();
    return c.json(outcome, outcome.cancelled ? 200 : 409);
  });

  app.post('/api/runs/:id/resume', async (c) => {
    const { maxIterations } = await body(c, ResumeRequestSchema);
    const resumed = await resumeAs(deps.client, c.get('session').user, c.req.param('id'), deps.taskQueue, maxIterations);
    deps.watcher.refreshNow();
    return c.json(resumed, 201);
  });

  app.post('/api/runs/:id/approve-all', async (c) => {
    const outcome = await approveAllAs(deps.client, c.get('session').user, c.req.param('id'), await body(c, ApproveAllRequestSchema));
    deps.watcher.refreshNow();
    return c.json(outcome, OUTCOME_STATUS[outcome.outcome]);
  });

  app.post('/api/runs/:id/mode', async (c) => {
    const outcome = await setModeAs(deps.client, c.get('session').user, c.req.param('id'), await body(c, ModeRequestSchema));
    deps.watcher.refreshNow();
    return c.json(outcome, OUTCOME_STATUS[outcome.outcome]);
  });

  app.post('/api/runs/:id/fork', async (c) => {
    const forked = await forkAs(deps.client, c.get('session').user, c.req.param('id'), await body(c, ForkRequestSchema), deps.taskQueue);
    deps.watcher.refreshNow();
    return c.json(forked, 201);
  });

  app.post('/api/runs/:id/messages', async (c) => {
    const { text } = await body(c, ReplyRequestSchema.pick({ text: true }));
    const outcome = await deps.followUp.send(deps.client, c.req.param('id'), text, c.get('session').user);
    deps.watcher.refreshNow();
    return c.json(outcome, OUTCOME_STATUS[outcome.outcome]);
  });
}
