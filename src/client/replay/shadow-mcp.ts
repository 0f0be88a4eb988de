import * as path from 'node:path';
import { isStdioServer, type McpServersConfig } from '../../runtime/mcp/mcp-server-config';

/** `value` with a leading `from` (a path, or a path inside it) replaced by `to`. */
function moved(value: string, from: string, to: string): string {
  if (value === from) return to;
  return value.startsWith(`${from}${path.sep}`) ? path.join(to, value.slice(from.length + 1)) : value;
}

/**
 * The configuration's MCP servers as a shadow starts them: each stdio server's arguments, working
 * folder, folders and environment that name the original workspace name the shadow's own folder
 * instead. A shadow starts its servers only to read their tool lists (the model request names their
 * tools); it never calls them (shadow-tools.ts). Pointed at the original, a sandboxed server could
 * not even start there: the shadow's sandbox does not show it.
 */
export function mcpServersForShadow(servers: McpServersConfig, original: string | undefined, shadowRoot: string): McpServersConfig {
  if (!original) return servers;
  const from = path.resolve(original);
  return Object.fromEntries(
    Object.entries(servers).map(([name, server]) => {
      if (!isStdioServer(server)) return [name, server];
      return [
        name,
        {
          ...server,
          args: server.args.map((arg) => moved(arg, from, shadowRoot)),
          ...(server.cwd !== undefined ? { cwd: moved(server.cwd, from, shadowRoot) } : {}),
          ...(server.folders ? { folders: server.folders.map((folder) => ({ ...folder, path: moved(folder.path, from, shadowRoot) })) } : {}),
          env: Object.fromEntries(Object.entries(server.env).map(([key, value]) => [key, moved(value, from, shadowRoot)])),
        },
      ];
    }),
  );
}
