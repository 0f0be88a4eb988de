// What the Temporal Web UI shows for a run: its summary and details from the start, current details
// that follow the run (phase, progress, the calls waiting for approval) and a summary per activity.
import { defaultPayloadConverter } from '@temporalio/common';
import { workflowMetadataQuery } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { approvalSignal } from '../../src/contract/agent-run-api';
import { waitFor, waitForApprovals, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';

const tasks = (first: string) => ({ tasks: [{ id: '1', description: 'Write the notes', status: first }] });

describe('run details for the Web UI', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('carries a summary, current details with progress and the pending calls, and activity summaries', async () => {
    const task = uniqueId('details');
    fake.script(task, [
      reply(toolCall('update_tasks', tasks('in_progress')), toolCall('list_files', {})),
      reply(toolCall('write_file', { path: 'notes.md', content: 'hi' })),
      reply(toolCall('update_tasks', tasks('completed')), toolCall('complete_task', { summary: 'Wrote notes.md', status: 'success' })),
    ]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      const described = await handle.describe();
      expect(await described.staticSummary()).toBe(`general: ${task}`);
      expect(await described.staticDetails()).toBe(`**Agent:** general\n\n**Task:** ${task}`);

      await waitForApprovals(handle, 1);
      const currentDetails = async () => (await handle.query(workflowMetadataQuery)).currentDetails ?? '';
      const parked = await currentDetails();
      expect(parked).toContain('**general** · waiting_approval · iteration 2/40');
      expect(parked).toContain('0/1 tasks');
      expect(parked).toContain('**Waiting for approval**');
      expect(parked).toContain('- `toolu_1_0` write_file {"path":"notes.md","content":"hi"}');

      await handle.signal(approvalSignal, { callId: 'toolu_1_0', decision: 'approve', approver: 'tester' });
      expect((await handle.result()).status).toBe('completed');
      const after = await waitFor(async () => {
        const d = await currentDetails();
        return d.includes('**Result (success):** Wrote notes.md') ? d : undefined;
      }, 'the details to show the result');
      expect(after).not.toContain('**Waiting for approval**');
      expect(after).toContain('1/1 tasks');

      const history = await handle.fetchHistory();
      const summaries = (history.events ?? [])
        .filter((e) => e.activityTaskScheduledEventAttributes)
        .map((e) => (e.userMetadata?.summary ? (defaultPayloadConverter.fromPayload(e.userMetadata.summary) as string) : undefined));
      expect(summaries).toEqual(expect.arrayContaining(['model balanced #1', 'model balanced #2', 'model balanced #3']));
      expect(summaries.some((s) => s?.startsWith('write_file') && s.includes('notes.md'))).toBe(true);
    });
  });
});
