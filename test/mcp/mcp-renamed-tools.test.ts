import { afterEach, describe, expect, it } from 'vitest';
import { McpServers, type McpToolsAnswer, type McpToolsRequest } from '../../src/mcp/mcp-servers.js';
import { createToolContext } from '../support/tool-context.js';
import { renamingStdioServer } from './support/mcp-configs.js';

let servers: McpServers | undefined;
afterEach(async () => {
  await servers?.close();
  servers = undefined;
});

const EVERY_TOOL: McpToolsRequest = { names: [], select: { servers: () => true, keep: (names) => names } };
const namesOf = (answer: McpToolsAnswer): string[] => answer.tools.map((t) => t.name).sort();

/** Has the server list its tools again, and answers them once the new listing is in. */
async function relist(all: McpServers, before: McpToolsAnswer): Promise<McpToolsAnswer> {
  const changed = before.tools.find((t) => t.name === 'mcp__renaming__changed')!;
  await changed.execute({}, createToolContext());
  const old = namesOf(before).join();
  for (;;) {
    const answer = await all.toolsFor(EVERY_TOOL);
    if (namesOf(answer).join() !== old) return answer;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

// Every listing used to add its tools to one map that nothing emptied: a server renaming a
// tool at each list_changed grew it (and the tools offered to runs asking by name) forever.
describe('an MCP server whose tools change names at every list_changed', () => {
  it('after 1,000 renames offers its current listing only, even to a run holding every name it ever had', async () => {
    servers = new McpServers({ renaming: renamingStdioServer() }, process.cwd());
    let answer = await servers.toolsFor(EVERY_TOOL);
    const ever = new Set(namesOf(answer));
    for (let i = 0; i < 1_000; i++) {
      answer = await relist(servers, answer);
      for (const name of namesOf(answer)) ever.add(name);
    }
    expect(ever.size).toBe(1_002);
    expect(namesOf(answer)).toEqual(['mcp__renaming__changed', 'mcp__renaming__t1001']);
    const held = await servers.toolsFor({ names: [...ever] });
    expect(namesOf(held)).toEqual(['mcp__renaming__changed', 'mcp__renaming__t1001']);
  }, 60_000);
});
