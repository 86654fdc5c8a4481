/**
 * What the `--mcp-config` tests share: a fake model that calls the first MCP `echo` tool it
 * is offered (else says it has none), and a config file naming our SDK stdio server.
 *
 * @module
 */
import type { FakeReply, RecordedRequest } from '../support/fake-openai-server.js';
import type { TestWorkspace } from '../support/tool-context.js';
import { ourStdioServer } from '../mcp/support/mcp-configs.js';

/** The tool names a request offered the model. */
export const toolsOffered = (request: RecordedRequest): string[] => (request.body.tools ?? []).map((t) => t.function?.name ?? '');

/**
 * The fake model: calls `mcp__<server>__echo` when offered, then answers with what the tool
 * returned (so the output shows it reached the model); offered none, it says so.
 */
export function echoCaller(request: RecordedRequest): FakeReply {
  const last = request.body.messages!.at(-1)!;
  if (last.role === 'tool') return { text: `tool said: ${String(last.content)}` };
  const echo = toolsOffered(request).find((name) => /^mcp__.+__echo$/.test(name));
  return echo ? { toolCalls: [{ name: echo, arguments: { text: 'from the model' } }] } : { text: 'no MCP tools' };
}

/** Writes `{ "mcpServers": { <name>: our stdio server, with `env` } }` to `path` in the workspace. */
export async function writeMcpConfig(workspace: TestWorkspace, path: string, servers: Record<string, Record<string, string>>): Promise<void> {
  const mcpServers = Object.fromEntries(Object.entries(servers).map(([name, env]) => [name, ourStdioServer(env)]));
  await workspace.file(path, JSON.stringify({ mcpServers }, null, 2));
}
