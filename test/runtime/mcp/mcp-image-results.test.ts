// An MCP tool that answers with an image reaches the model as an image block inside its tool_result
// (issue 22, must-have 4), through a real agentRun on the real Temporal server with the model faked
// over HTTP; structured content and resource links reach it as text.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolResultsIn, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';
import { startImageServer, TINY_PNG } from './support/image-server';

const bed = useAgentTestbed();
const complete = reply(toolCall('complete_task', { summary: 'seen', status: 'success', next_steps: 'none' }));

describe('MCP tool results with images', () => {
  let images: Awaited<ReturnType<typeof startImageServer>>;
  let config: string;
  beforeAll(async () => {
    images = await startImageServer();
    config = path.join(await mkdtemp(path.join(tmpdir(), 'mcp-images-')), 'agents.yaml');
    await writeFile(
      config,
      // An HTTP server's own readOnlyHint does not let its tools run unseen (issue 30): the configuration says so.
      ['mcpServers:', `  images: { url: ${JSON.stringify(images.url)}, tools: { get-tiny-image: { scope: read }, get-chart-data: { scope: read } } }`, 'agents:', '  - name: looker', '    description: Looks at images.', '    modelTier: fast', '    maxIterations: 4', '    tools: []', '    mcpServers: [images]', '    systemPrompt: Look.', ''].join('\n'),
    );
  });
  afterAll(() => images.close());

  it("gives the model get-tiny-image's PNG as an image block inside the tool_result, after its text and link", async () => {
    const task = uniqueId('tiny-image');
    bed.fake.script(task, [reply(toolCall('mcp__images__get-tiny-image', {})), complete]);
    const result = await withAgentWorker({ ...bed.harness(), env: { AGENT_CONFIG: config } }, async ({ start }) => (await start({ agent: 'looker', task })).result());
    expect(result.status).toBe('completed');
    const [toolResult] = toolResultsIn(bed.fake.requestsFor(task)[1]) as unknown as { content: unknown }[];
    expect(toolResult!.content).toEqual([
      {
        type: 'text',
        text: 'This is a tiny image:\n[resource link: file:///images/tiny.png "tiny.png" (image/png): the full-size file]\n[attached: image/png image, 70 bytes]',
      },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: TINY_PNG } },
    ]);
  });

  it('gives the model structured content as JSON text', async () => {
    const task = uniqueId('structured');
    bed.fake.script(task, [reply(toolCall('mcp__images__get-chart-data', {})), complete]);
    await withAgentWorker({ ...bed.harness(), env: { AGENT_CONFIG: config } }, async ({ start }) => (await start({ agent: 'looker', task })).result());
    expect(toolResultsIn(bed.fake.requestsFor(task)[1])).toEqual([expect.objectContaining({ type: 'tool_result', content: '{"points":[1,2,3]}' })]);
  });
});
