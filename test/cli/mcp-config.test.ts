import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { marksFile, type Marks } from '../mcp/support/mcp-configs.js';
import { sandboxPerTest } from './sandbox-per-test.js';
import { echoCaller, toolsOffered, writeMcpConfig } from './mcp-config-support.js';

const sandbox = sandboxPerTest({ handler: echoCaller });
let marks: Marks;
beforeEach(async () => {
  marks = await marksFile();
});
afterEach(() => marks.cleanup());

const run = sandbox.runJson;
const events = (ndjson: string) => ndjson.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { type: string; toolName?: string; text?: string; error?: string });

describe('rxharness run --mcp-config', () => {
  it('gives the agent the servers’ tools: the model calls mcp__test__echo on a real stdio server and reads its answer', async () => {
    await writeMcpConfig(sandbox.workspace, 'conf/mcp.json', { test: marks.env });
    const { code, cli } = await run('--mcp-config', 'conf/mcp.json', 'echo something');
    expect(cli.stderrText()).toBe('');
    expect(code).toBe(0);
    expect(toolsOffered(sandbox.server.requests[0]!)).toContain('mcp__test__echo');
    const end = events(cli.stdoutText()).find((e) => e.type === 'ToolCallEnd');
    expect(end).toMatchObject({ toolName: 'mcp__test__echo', text: 'echo: from the model' });
    expect(end!.error).toBeUndefined();
    expect(cli.stdoutText()).toContain('tool said: echo: from the model');
    // The server did start (so the test below, where it must not, can tell).
    await marks.waitFor(/^pid \d+$/);
  }, 30_000);

  it('merges several files (repeatable flag); the same name in two files is bad usage naming both', async () => {
    await writeMcpConfig(sandbox.workspace, 'a.json', { one: {} });
    await writeMcpConfig(sandbox.workspace, 'b.json', { two: {} });
    await sandbox.workspace.file('c.json', JSON.stringify({ mcpServers: { one: { url: 'https://example.invalid/mcp' } } }));
    // Both servers start, and the model is offered the tools of each.
    const both = await run('--mcp-config', 'a.json', '--mcp-config', 'b.json', 'hi');
    expect(both.code).toBe(0);
    expect(toolsOffered(sandbox.server.requests[0]!)).toEqual(expect.arrayContaining(['mcp__one__echo', 'mcp__two__echo']));
    const requests = sandbox.server.requests.length;

    const clash = await run('--mcp-config', 'a.json', '--mcp-config', 'c.json', 'hi');
    expect(clash.code).toBe(2);
    expect(clash.cli.stderrText()).toBe('rxharness: --mcp-config c.json: server "one" is also defined in a.json; rename one of them (a server\'s name prefixes its tools: mcp__one__<tool>)\n');
    expect(sandbox.server.requests).toHaveLength(requests);
  }, 30_000);

  it.each([
    ['missing.json', undefined, '--mcp-config missing.json: no such file'],
    ['bad.json', '{ "mcpServers": { ', '--mcp-config bad.json: not valid JSON ('],
    ['empty.json', '', '--mcp-config empty.json: not valid JSON ('],
    ['none.json', '{ "servers": {} }', '--mcp-config none.json: needs an "mcpServers" object, e.g. { "mcpServers": { "fs": { "command": "npx"'],
    ['list.json', '{ "mcpServers": [] }', '--mcp-config list.json: needs an "mcpServers" object'],
    ['key.json', '{ "mcpServers": { "fs": { "command": "npx", "arg": [] } } }', '--mcp-config key.json: `mcpServers.fs` has an unknown key "arg" (did you mean "args" for "arg"?); known keys: command, args, env, cwd, startTimeoutMs'],
    ['comand.json', '{ "mcpServers": { "fs": { "comand": "npx" } } }', '--mcp-config comand.json: `mcpServers.fs` must have either `command` (a process over stdio) or `url` (Streamable HTTP), not both or neither (did you mean "command" for "comand"?)'],
    ['servers.json', '{ "mcp_servers": { "fs": { "command": "npx" } } }', '--mcp-config servers.json: needs an "mcpServers" object (found "mcp_servers": did you mean "mcpServers"?), e.g.'],
    ['name.json', '{ "mcpServers": { "a__b": { "command": "npx" } } }', '--mcp-config name.json: `mcpServers.a__b` has a bad name'],
    ['proto.json', '{ "mcpServers": { "__proto__": { "command": "npx" } } }', '--mcp-config proto.json: `mcpServers.__proto__` has a bad name'],
    ['url.json', '{ "mcpServers": { "web": { "url": "ftp://x" } } }', '--mcp-config url.json: `mcpServers.web` `url` must be an http or https url, got "ftp://x/"'],
    ['sse.json', '{ "mcpServers": { "web": { "type": "sse", "url": "https://x/sse" } } }', '--mcp-config sse.json: `mcpServers.web.type` "sse" is not supported'],
    ['type.json', '{ "mcpServers": { "web": { "type": "http", "command": "npx" } } }', '--mcp-config type.json: `mcpServers.web` is of type "http" but has no `url`'],
  ])('%s: bad usage (exit 2) saying what is wrong, and nothing runs', async (file, content, message) => {
    if (content !== undefined) await sandbox.workspace.file(file, content);
    const { code, cli } = await run('--mcp-config', file, 'hi');
    expect(code).toBe(2);
    expect(cli.stderrText()).toContain(`rxharness: ${message}`);
    expect(sandbox.server.requests).toHaveLength(0);
  });

  it('a file written for Claude Code ("type": "stdio" / "http") is accepted', async () => {
    await sandbox.workspace.file('.mcp.json', JSON.stringify({ mcpServers: { fs: { type: 'stdio', command: 'npx', args: ['x'] }, web: { type: 'http', url: 'https://example.invalid/mcp' } } }));
    // `agents` checks the file without starting anything.
    const cli = sandbox.io();
    expect(await main(['agents', '--mcp-config', '.mcp.json'], cli)).toBe(0);
    expect(cli.stderrText()).toBe('');
  });

  it('a .mcp.json planted in the workspace is not loaded: its server never starts and its tools are not offered', async () => {
    await writeMcpConfig(sandbox.workspace, '.mcp.json', { planted: marks.env });
    await writeMcpConfig(sandbox.workspace, '.rxharness/mcp.json', { planted: marks.env });
    const { code, cli } = await run('echo something');
    expect(code).toBe(0);
    expect(toolsOffered(sandbox.server.requests[0]!).filter((name) => name.startsWith('mcp__'))).toEqual([]);
    expect(cli.stdoutText()).toContain('no MCP tools');
    expect(await marks.lines()).toEqual([]);
  });
});
