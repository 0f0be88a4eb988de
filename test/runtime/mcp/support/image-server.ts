// A small MCP server for the tests whose tools answer with what a browser or screenshot server
// sends: `get-tiny-image` (as the official "everything" server names it) returns text, a PNG and a
// resource link; `get-chart-data` returns only structured content. Served over streamable HTTP in
// the test's own process.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** A 1×1 PNG, as base64. */
export const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function createImageServer(): McpServer {
  const server = new McpServer({ name: 'images', version: '1.0.0' });
  server.registerTool('get-tiny-image', { description: 'Returns a tiny image.', annotations: { readOnlyHint: true } }, async () => ({
    content: [
      { type: 'text', text: 'This is a tiny image:' },
      { type: 'image', data: TINY_PNG, mimeType: 'image/png' },
      { type: 'resource_link', uri: 'file:///images/tiny.png', name: 'tiny.png', mimeType: 'image/png', description: 'the full-size file' },
    ],
  }));
  server.registerTool(
    'get-chart-data',
    { description: 'Returns chart data.', outputSchema: { points: z.array(z.number()) }, annotations: { readOnlyHint: true } },
    async () => ({ content: [], structuredContent: { points: [1, 2, 3] } }),
  );
  return server;
}

export async function startImageServer() {
  const server = http.createServer(async (req, res) => {
    const mcp = createImageServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void mcp.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
