import { describe, expect, it } from 'vitest';
import { createToolContext } from '../support/tool-context.js';
import type { McpConnection } from '../../src/mcp/mcp-connection.js';
import { mcpTool } from '../../src/mcp/mcp-tool.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { checkMcpServers, type McpServerConfig } from '../../src/mcp/mcp-server-config.js';
import { MAX_MCP_RESULT_CHARS, mcpResultText } from '../../src/mcp/mcp-result-text.js';
import { mcpSubject } from '../../src/mcp/mcp-subject.js';
import { mcpServerOf, mcpToolName } from '../../src/mcp/mcp-tool-name.js';
import { applyNarrowing, isKnownToolName, mayKeepPrefix } from '../../src/subagent/narrow-tools.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { namesTool } from '../../src/permission/rule-matches.js';

describe('MCP tool names', () => {
  it('are mcp__<server>__<tool>, with characters models refuse replaced', () => {
    expect(mcpToolName('fs', 'read_text_file')).toBe('mcp__fs__read_text_file');
    expect(mcpToolName('docs', 'search.pages/v2 beta')).toBe('mcp__docs__search_pages_v2_beta');
    expect(mcpToolName('x', 'ünï©ødé')).toMatch(/^mcp__x__[a-zA-Z0-9_-]+$/);
  });

  it('are cut to 64 characters, two long names kept apart by a hash, the server still readable', () => {
    const a = mcpToolName('server', `${'long_'.repeat(20)}a`);
    const b = mcpToolName('server', `${'long_'.repeat(20)}b`);
    expect(a).toHaveLength(64);
    expect(a).not.toBe(b);
    expect(mcpServerOf(a)).toBe('server');
    expect(mcpServerOf(mcpToolName('a-b_c', 'x__y'))).toBe('a-b_c');
    expect(mcpServerOf('read')).toBeUndefined();
  });
});

describe('checkMcpServers', () => {
  const bad = (servers: Record<string, unknown>): string => {
    try {
      checkMcpServers(servers as Record<string, McpServerConfig>);
      return 'no error';
    } catch (e) {
      return (e as Error).message;
    }
  };

  it('accepts stdio and http servers', () => {
    expect(bad({ fs: { command: 'node', args: ['s.js'], env: { A: '1' }, cwd: 'x', startTimeoutMs: 10 }, web: { url: 'https://h/mcp', headers: { a: 'b' } } })).toBe('no error');
  });

  it.each([
    [{ 'a__b': { command: 'x' } }, /bad name/],
    [{ '': { command: 'x' } }, /bad name/],
    [{ ['s'.repeat(41)]: { command: 'x' } }, /bad name/],
    [{ s: { command: 'x', url: 'http://h' } }, /either `command`.*or `url`/],
    [{ s: {} }, /either `command`/],
    [{ s: { command: 'x', arg: [] } }, /unknown key "arg"/],
    [{ s: { command: '' } }, /`command` must be a non-empty string/],
    [{ s: { command: 'x', args: 'a b' } }, /`args` must be an array of strings/],
    [{ s: { command: 'x', env: { A: 1 } } }, /`env` must be an object of strings/],
    [{ s: { url: 'ftp://h' } }, /`url` must be an http or https url/],
    [{ s: { url: 'http://h', startTimeoutMs: 0 } }, /startTimeoutMs/],
    // Node fires a timer armed over 2^31-1 ms after 1 ms: every start would time out at once.
    [{ s: { command: 'x', startTimeoutMs: 2 ** 31 } }, /`startTimeoutMs` must be an integer of milliseconds from 1 to 2147483647/],
    [{ s: null }, /must be an object/],
  ])('refuses %j', (servers, message) => {
    expect(bad(servers)).toMatch(message);
  });

  it('is what the engine constructor runs, and a tool taking a server tool name is refused', () => {
    const model = new ScriptedModel([]);
    expect(() => new HarnessEngine({ model, mcpServers: { s: { command: 'x', arg: [] } as never } })).toThrow(/mcpServers\.s` has an unknown key/);
    const clash = defineTool({ name: 'mcp__s__x', description: 'x', input: { type: 'object' }, execute: () => 'x' });
    expect(() => new HarnessEngine({ model, tools: [clash], mcpServers: { s: { command: 'x' } } })).toThrow(/takes a name of the MCP server "s"/);
  });
});

describe('mcpSubject', () => {
  it('is the main string argument, else the JSON of the arguments', () => {
    expect(mcpSubject({ type: 'object', properties: { head: { type: 'number' }, path: { type: 'string' } } })({ path: 'a/b', head: 1 })).toBe('a/b');
    expect(mcpSubject({ type: 'object', properties: { url: { type: ['string', 'null'] } } })({ url: 'https://x' })).toBe('https://x');
    expect(mcpSubject({ type: 'object', properties: { a: { type: 'number' } } })({ a: 1 })).toBe('{"a":1}');
    // Declared but left out of this call: the JSON.
    expect(mcpSubject({ type: 'object', properties: { path: { type: 'string' } } })({})).toBe('{}');
  });
});

describe('mcpResultText', () => {
  it('keeps text, describes what is not text, marks errors', () => {
    expect(mcpResultText({ content: [{ type: 'text', text: 'a' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] })).toBe('a\n[image image/png, 3 bytes, not shown]');
    expect(mcpResultText({ content: [], structuredContent: { n: 1 } })).toBe('{"n":1}');
    expect(mcpResultText({ content: [{ type: 'text', text: 'nope' }], isError: true })).toEqual({ text: 'ERROR: nope', error: 'nope' });
    expect(mcpResultText({ content: [], isError: true })).toMatchObject({ text: expect.stringMatching(/^ERROR: /) });
  });

  it('cuts a huge answer to its start and end', () => {
    const text = mcpResultText({ content: [{ type: 'text', text: `S${'x'.repeat(MAX_MCP_RESULT_CHARS * 3)}E` }] }) as string;
    expect(text.length).toBeLessThan(MAX_MCP_RESULT_CHARS + 100);
    expect(text.startsWith('S') && text.endsWith('E')).toBe(true);
  });
});

describe('narrowing names known only at run start', () => {
  it('applies each step in turn, globs included', () => {
    const names = ['mcp__fs__read_file', 'mcp__fs__write_file', 'mcp__gh__search'];
    expect(applyNarrowing([{ disabledTools: ['mcp__fs__write_file'] }, { tools: ['mcp__fs__*'] }], names)).toEqual(['mcp__fs__read_file']);
    expect(applyNarrowing([{ tools: ['**'] }, { disallowedTools: ['mcp__gh__*'] }], names)).toEqual(['mcp__fs__read_file', 'mcp__fs__write_file']);
    // `*` is the public set: no MCP tool is in it.
    expect(applyNarrowing([{ tools: ['*'] }], names)).toEqual([]);
  });

  it('starts a server only when a step may keep one of its tools', () => {
    expect(mayKeepPrefix([{ tools: ['read', 'mcp__fs__*'] }], 'mcp__fs__')).toBe(true);
    expect(mayKeepPrefix([{ tools: ['mcp__f*'] }], 'mcp__fs__')).toBe(true);
    expect(mayKeepPrefix([{ tools: ['read'] }], 'mcp__fs__')).toBe(false);
    expect(mayKeepPrefix([{}, { disallowedTools: ['mcp__fs__*'] }], 'mcp__fs__')).toBe(false);
    expect(mayKeepPrefix([{ disabledTools: ['**'] }], 'mcp__fs__')).toBe(false);
    expect(mayKeepPrefix([{ disabledTools: ['*'] }], 'mcp__fs__')).toBe(true);
    expect(mayKeepPrefix([{ tools: ['*'] }], 'mcp__fs__')).toBe(false);
    expect(mayKeepPrefix([{ tools: ['**'] }], 'mcp__fs__')).toBe(true);
  });

  it('knows a name a known glob covers, and a glob covering a known name', () => {
    expect(isKnownToolName('mcp__fs__read_file', ['read', 'mcp__fs__*'])).toBe(true);
    expect(isKnownToolName('mcp__fs__*', ['mcp__fs__*'])).toBe(true);
    expect(isKnownToolName('re*', ['read'])).toBe(true);
    expect(isKnownToolName('mcp__gh__x', ['mcp__fs__*'])).toBe(false);
  });
});

describe('mcpTool', () => {
  const answering = (text: string): McpConnection =>
    ({ name: 'x', call: async () => ({ content: [{ type: 'text', text }] }) }) as unknown as McpConnection;

  it('offers a schema ajv cannot compile as it is, and leaves its checking to the server', async () => {
    const schema = { type: 'object', properties: { a: { type: 'no-such-type' } } };
    const tool = mcpTool('mcp__x__y', { name: 'y', inputSchema: schema as never }, answering('ok')).tool!;
    expect(tool.modelParameters ?? tool.parameters).toEqual(schema);
    expect(await tool.execute({ a: 1 }, createToolContext())).toBe('ok');
  });

  it('drops $schema from what the model is offered, and describes a tool without a description', () => {
    const tool = mcpTool('mcp__x__y', { name: 'y', title: 'Why', inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' } as never }, answering('ok')).tool!;
    expect(JSON.stringify(tool.modelParameters ?? tool.parameters)).not.toContain('$schema');
    expect(tool.description).toBe('Why (a tool of the MCP server "x")');
  });

  it('quotes a pattern it cannot check cut short in its warning (a schema may hold one of 60 KiB)', () => {
    const pattern = `^(?!${'a'.repeat(20_000)})`;
    const { warnings } = mcpTool('mcp__x__y', { name: 'y', inputSchema: { type: 'object', properties: { s: { type: 'string', pattern } } } as never }, answering('ok'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message.length).toBeLessThan(600);
    expect(warnings[0]!.message).toContain('"^(?!aaa');
  });

  it('turns a call that throws into a failed result', async () => {
    const failing = { name: 'x', call: async () => Promise.reject(new Error('MCP server "x" is not running')) } as unknown as McpConnection;
    const tool = mcpTool('mcp__x__y', { name: 'y', inputSchema: { type: 'object' } }, failing).tool!;
    expect(await tool.execute({}, createToolContext())).toEqual({ text: 'ERROR: MCP server "x" is not running', error: 'MCP server "x" is not running' });
  });
});

describe('a permission rule\'s tool', () => {
  it('names a tool, every tool, or the tools starting with a prefix', () => {
    expect(namesTool('mcp__gh__*', 'mcp__gh__create_issue')).toBe(true);
    expect(namesTool('mcp__gh__*', 'mcp__ghx__a')).toBe(false);
    expect(namesTool('*', 'read')).toBe(true);
    expect(namesTool('read', 'read')).toBe(true);
    expect(namesTool('read', 'reader')).toBe(false);
  });
});
