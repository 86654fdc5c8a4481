import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import type { DelegationFixture } from '../support/delegation-fixture.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { filesystemServer } from './support/mcp-configs.js';

const startFixture = delegationFixturePerTest();
let f: DelegationFixture;

/** Child processes this process has now (a stdio server is one). */
const childProcesses = (): number => process.getActiveResourcesInfo().filter((r) => r === 'ProcessWrap').length;

describe('@modelcontextprotocol/server-filesystem (a real server from the registry, over stdio)', () => {
  it('reads and lists through its tools; rules on its path arguments deny; close() ends it', async () => {
    f = await startFixture();
    const note = await f.workspace.file('notes/a.txt', 'hello from a file');
    await f.workspace.file('secret/key.txt', 'do not read');
    f.route({
      main: steps({
        toolCalls: [
          { name: 'mcp__fs__read_text_file', arguments: { path: note } },
          { name: 'mcp__fs__list_directory', arguments: { path: join(f.workspace.dir, 'notes') } },
          { name: 'mcp__fs__read_text_file', arguments: { path: join(f.workspace.dir, 'secret/key.txt') } },
          { name: 'mcp__fs__read_text_file', arguments: { path: '/etc/hostname' } },
        ],
      }),
    });
    const before = childProcesses();
    const engine = f.engine({
      mcpServers: { fs: filesystemServer(f.workspace.dir) },
      permissionRules: [{ tool: 'mcp__fs__read_text_file', action: 'deny', pattern: '**/secret/**' }],
    });
    const ends = own(await collect(engine.stream('go')), 'ToolCallEnd');
    expect(ends[0]!.text).toBe('hello from a file');
    expect(ends[1]!.text).toContain('[FILE] a.txt');
    expect(ends[2]!.text).toMatch(/^ERROR: .*denied/i);
    // Outside its allowed folder: the server refuses (isError), the run goes on.
    expect(ends[3]!.text).toMatch(/^ERROR: .*(denied|outside)/i);
    expect(childProcesses()).toBe(before + 1);
    await engine.close();
    // The process has exited (its 'close' event came); node drops its handle a moment later.
    await expect.poll(childProcesses, { timeout: 1_000, interval: 10 }).toBe(before);
  });

  it('a subagent limited to its read tools by glob cannot write', async () => {
    f = await startFixture({
      main: steps(taskReply('reader', 'read it')),
      reader: (turn) =>
        turn.step === 1
          ? { toolCalls: [{ name: 'mcp__fs__write_file', arguments: { path: join(f.workspace.dir, 'x.txt'), content: 'x' } }] }
          : { text: `reader saw: ${turn.toolResults.at(-1) ?? ''} | tools: ${turn.toolNames.filter((n) => n.startsWith('mcp__')).join(',')}` },
    });
    const engine = f.engine({ mcpServers: { fs: filesystemServer(f.workspace.dir) } }, [testAgent('reader', { tools: ['mcp__fs__read_*', 'mcp__fs__list_*'] })]);
    const result = await engine.call('go');
    expect(result.text).toMatch(/unknown tool|not available|no tool/i);
    expect(result.text).toContain('mcp__fs__read_text_file');
    expect(result.text).not.toContain('mcp__fs__write_file,');
    await expect(readFile(join(f.workspace.dir, 'x.txt'), 'utf8')).rejects.toThrow();
  });
});
