// How an MCP tool's scope is read (issue 30): a server's own "read-only" counts only where the worker
// confines the server; elsewhere the tool parks unless the configuration names its scope.
import { describe, expect, it } from 'vitest';
import type { McpToolInfo } from '../../../src/runtime/mcp/mcp-connection';
import { classifyMcpTool } from '../../../src/runtime/mcp/mcp-tools';

const tool = (annotations?: Record<string, boolean>): McpToolInfo => ({ name: 't', inputSchema: { type: 'object' }, ...(annotations ? { annotations } : {}) });

describe('classifyMcpTool', () => {
  it('reads the annotations of a contained server (sandboxed, no network): read-only runs as a read tool', () => {
    expect(classifyMcpTool(tool({ readOnlyHint: true }))).toEqual({ scope: 'read', idempotent: true });
    expect(classifyMcpTool(tool({ destructiveHint: true }))).toEqual({ scope: 'execute', idempotent: false });
    expect(classifyMcpTool(tool())).toEqual({ scope: 'write', idempotent: false });
    expect(classifyMcpTool(tool({ idempotentHint: true }))).toEqual({ scope: 'write', idempotent: true });
  });

  it('makes a read-only tool of a server that is not contained (HTTP, unsandboxed, network) a write tool, still safe to repeat', () => {
    expect(classifyMcpTool(tool({ readOnlyHint: true }), {}, false)).toEqual({ scope: 'write', idempotent: true });
    expect(classifyMcpTool(tool({ destructiveHint: true }), {}, false)).toEqual({ scope: 'execute', idempotent: false });
  });

  it('takes the configuration\'s scope over everything: the operator may grant read explicitly', () => {
    expect(classifyMcpTool(tool({ readOnlyHint: true }), { scope: 'read' }, false)).toEqual({ scope: 'read', idempotent: true });
    expect(classifyMcpTool(tool({ readOnlyHint: true }), { scope: 'execute', idempotent: false })).toEqual({ scope: 'execute', idempotent: false });
  });
});
