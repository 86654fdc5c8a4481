import { describe, expect, it } from 'vitest';
import { ourStdioServer } from '../mcp/support/mcp-configs.js';
import { testAgent } from '../support/agent-turns.js';
import { collect } from '../support/collect-events.js';
import type { DelegationFixture } from '../support/delegation-fixture.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps, taskReply } from '../support/delegation-script.js';

// Issue 24 item 7 (Solon's tool names): `*` is the public tool set (built-ins, custom tools
// and delegation, no MCP tools), `**` the full set with the MCP tools; granting `edit`
// grants `read` and `write` with it. Before, `*` and `**` both gave everything, MCP tools
// included, and `edit` came alone.

const startFixture = delegationFixturePerTest();
let f: DelegationFixture;

/** Every tool offered to an agent's first request. */
const offered = (agent: string): string[] => f.requestsOf(agent)[0]!.body.tools!.map((t) => t.function!.name);
const isMcp = (name: string): boolean => name.startsWith('mcp__');

describe('tool sets and implied tools, offered by a real engine with a real MCP server', () => {
  it('"*" gives the public set without MCP tools, "**" everything, "edit" brings read and write', async () => {
    f = await startFixture({
      main: steps(taskReply('pub', 'a'), taskReply('full', 'b'), taskReply('editor', 'c'), taskReply('mixed', 'd')),
      pub: () => ({ text: 'ok' }),
      full: () => ({ text: 'ok' }),
      editor: () => ({ text: 'ok' }),
      mixed: () => ({ text: 'ok' }),
    });
    const agents = [
      testAgent('pub', { tools: ['*'] }),
      testAgent('full', { tools: ['**'] }),
      testAgent('editor', { tools: ['edit'] }),
      testAgent('mixed', { tools: ['*', 'mcp__t__echo'], disallowedTools: ['edit'] }),
    ];
    const engine = f.engine({ mcpServers: { t: ourStdioServer() }, maxDepth: 1 }, agents);
    await collect(engine.stream('go'));

    const main = offered('main');
    expect(main.some(isMcp)).toBe(true);
    expect(offered('full')).toEqual(main.filter((n) => !['task', 'multitask', 'generate'].includes(n)));
    expect(offered('pub')).toEqual(main.filter((n) => !isMcp(n) && !['task', 'multitask', 'generate'].includes(n)));
    expect(offered('pub')).toEqual(expect.arrayContaining(['read', 'write', 'edit', 'bash']));
    expect(offered('editor').sort()).toEqual(['edit', 'read', 'write']);
    // A disallowed edit takes nothing with it; `*` plus one MCP tool by name.
    expect(offered('mixed')).toContain('read');
    expect(offered('mixed')).not.toContain('edit');
    expect(offered('mixed').filter(isMcp)).toEqual(['mcp__t__echo']);
  });
});
