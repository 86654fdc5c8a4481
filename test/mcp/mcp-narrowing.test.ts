import { describe, expect, it } from 'vitest';
import { testAgent, testAgentPrompt } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import type { DelegationFixture } from '../support/delegation-fixture.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps, taskReply } from '../support/delegation-script.js';
import type { ApprovalRequest } from '../../src/permission/approval.js';
import { ourStdioServer } from './support/mcp-configs.js';

const startFixture = delegationFixturePerTest();
let f: DelegationFixture;

const call = (name: string, args: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: args }] });
const SERVERS = { mcpServers: { t: ourStdioServer() } };

/** The MCP tools offered to an agent's first request. */
const mcpOffered = (agent: string): string[] => f.requestsOf(agent)[0]!.body.tools!.flatMap((t) => (t.function?.name.startsWith('mcp__') ? [t.function.name] : []));

describe('MCP tools are narrowed like built-ins', () => {
  it('a definition names them, exactly or by glob; disallowedTools globs remove', async () => {
    f = await startFixture({
      main: steps(taskReply('picky', 'a'), taskReply('globby', 'b'), taskReply('none', 'c')),
      picky: () => ({ text: 'ok' }),
      globby: () => ({ text: 'ok' }),
      none: () => ({ text: 'ok' }),
    });
    const agents = [
      testAgent('picky', { tools: ['read', 'mcp__t__echo'] }),
      testAgent('globby', { tools: ['mcp__t__*'], disallowedTools: ['mcp__t__c*', 'mcp__t__w*'] }),
      testAgent('none', { tools: ['read'] }),
    ];
    const engine = f.engine(SERVERS, agents);
    await collect(engine.stream('go'));
    expect(mcpOffered('picky')).toEqual(['mcp__t__echo']);
    expect(mcpOffered('globby')).toEqual(['mcp__t__echo', 'mcp__t__read_note', 'mcp__t__add', 'mcp__t__huge', 'mcp__t__fail', 'mcp__t__odd_name_with_spaces_']);
    expect(mcpOffered('none')).toEqual([]);
    expect(engine.agents.diagnostics().filter((d) => /mcp__/.test(d.reason))).toEqual([]);
  });

  it('children only narrow: a grandchild asking for the whole server gets what its parent had', async () => {
    f = await startFixture({
      main: steps(taskReply('parent', 'a')),
      parent: steps(taskReply('child', 'b')),
      child: () => ({ text: 'ok' }),
    });
    const agents = [testAgent('parent', { tools: ['task', 'mcp__t__echo', 'mcp__t__add'] }), testAgent('child', { tools: ['mcp__t__*', 'read'] })];
    const engine = f.engine({ ...SERVERS, maxDepth: 3 }, agents);
    await collect(engine.stream('go'));
    expect(mcpOffered('parent')).toEqual(['mcp__t__echo', 'mcp__t__add']);
    expect(mcpOffered('child')).toEqual(['mcp__t__echo', 'mcp__t__add']);
  });

  it('disabledTools (globs too) remove them for every agent, and a definition run directly narrows too', async () => {
    f = await startFixture({ main: () => ({ text: 'ok' }), solo: () => ({ text: 'ok' }) });
    const engine = f.engine({ ...SERVERS, disabledTools: ['mcp__t__crash', 'mcp__t__w*'] }, [testAgent('solo', { tools: ['mcp__t__echo', 'mcp__t__crash'] })]);
    await engine.call('go');
    expect(mcpOffered('main')).not.toContain('mcp__t__crash');
    expect(mcpOffered('main')).not.toContain('mcp__t__wait');
    expect(mcpOffered('main')).toContain('mcp__t__echo');
    await collect(engine.agent('solo').stream('go'));
    expect(mcpOffered('solo')).toEqual(['mcp__t__echo']);
  });

  it('a primary definition narrows the main agent\'s MCP tools', async () => {
    f = await startFixture({ boss: () => ({ text: 'ok' }) });
    const engine = f.engine(SERVERS, [testAgent('boss', { mode: 'primary', tools: ['read', 'mcp__t__e*'] })]);
    expect((await engine.call('go')).text).toBe('ok');
    expect(mcpOffered('boss')).toEqual(['mcp__t__echo']);
  });

  it('a definition naming a server the engine lacks gets an unknown-tool diagnostic', async () => {
    f = await startFixture({ main: () => ({ text: 'ok' }) });
    const engine = f.engine(SERVERS, [testAgent('lost', { tools: ['mcp__nope__x', 'mcp__t__anything'] })]);
    const messages = engine.agents.diagnostics().map((d) => d.reason);
    expect(messages.filter((m) => m.includes('mcp__nope__x'))).toHaveLength(1);
    expect(messages.filter((m) => m.includes('mcp__t__anything'))).toHaveLength(0);
  });
});

describe('an agent made by generate', () => {
  it('may name MCP tools, exactly or by glob, and gets them when it runs', async () => {
    const made = { name: 'maker', description: 'Made.', system_prompt: testAgentPrompt('maker'), tools: ['mcp__t__echo', 'mcp__t__a*'] };
    f = await startFixture({ main: steps({ toolCalls: [{ name: 'generate', arguments: made }] }, taskReply('maker', 'x')), maker: () => ({ text: 'ok' }) });
    const engine = f.engine(SERVERS);
    const ends = own(await collect(engine.stream('go')), 'ToolCallEnd');
    expect(ends[0]!.error).toBeUndefined();
    expect(mcpOffered('maker')).toEqual(['mcp__t__echo', 'mcp__t__add']);
  });
});

describe('permission rules apply to MCP tools', () => {
  it('match the main string argument (a path), else the JSON of the arguments', async () => {
    f = await startFixture({
      main: steps(
        { toolCalls: [
          { name: 'mcp__t__read_note', arguments: { path: 'secret/key.txt' } },
          { name: 'mcp__t__read_note', arguments: { path: 'notes/a.txt' } },
          { name: 'mcp__t__add', arguments: { a: 1, b: 2 } },
        ] },
      ),
    });
    const asked: ApprovalRequest[] = [];
    const engine = f.engine({
      ...SERVERS,
      permissionRules: [
        { tool: 'mcp__t__read_note', action: 'deny', pattern: 'secret/**' },
        { tool: 'mcp__t__add', action: 'ask', pattern: '*:1,*' },
      ],
      approve: (request) => {
        asked.push(request);
        return { decision: 'reject', comment: 'not this sum' };
      },
    });
    const ends = own(await collect(engine.stream('go')), 'ToolCallEnd');
    expect(ends[0]!.text).toMatch(/^ERROR: .*denied/i);
    expect(ends[1]!.text).toBe('note at notes/a.txt');
    expect(asked.map((r) => r.toolName)).toEqual(['mcp__t__add']);
    expect(ends[2]!.text).toMatch(/^ERROR: .*not this sum/);
  });

  it('a rule naming the server by prefix (mcp__t__*) covers each of its tools', async () => {
    f = await startFixture({ main: steps({ toolCalls: [{ name: 'mcp__t__echo', arguments: { text: 'x' } }, { name: 'mcp__t__add', arguments: { a: 1, b: 1 } }, { name: 'read', arguments: { path: 'nothing.txt' } }] }) });
    const asked: string[] = [];
    const engine = f.engine({
      ...SERVERS,
      permissionRules: [{ tool: 'mcp__t__*', action: 'ask' }],
      approve: (request) => {
        asked.push(request.toolName);
        return { decision: 'approve' };
      },
    });
    const ends = own(await collect(engine.stream('go')), 'ToolCallEnd');
    expect(asked).toEqual(['mcp__t__echo', 'mcp__t__add']);
    expect(ends.slice(0, 2).map((e) => e.text)).toEqual(['echo: x', '2']);
  });

  it('a rule for every tool with no pattern covers them', async () => {
    f = await startFixture({ main: steps(call('mcp__t__echo', { text: 'x' })) });
    const engine = f.engine({ ...SERVERS, permissionRules: [{ tool: 'mcp__t__echo', action: 'deny' }] });
    const ends = own(await collect(engine.stream('go')), 'ToolCallEnd');
    expect(ends[0]!.text).toMatch(/^ERROR: /);
  });
});
