import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionRule } from '../../src/permission/permission-rule.js';
import { collect, own } from '../support/collect-events.js';
import type { DelegationFixture } from '../support/delegation-fixture.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps } from '../support/delegation-script.js';
import { filesystemServer } from './support/mcp-configs.js';

const startFixture = delegationFixturePerTest();
let f: DelegationFixture;

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });
const rules: PermissionRule[] = [
  { tool: 'read', action: 'deny', pattern: '**/secret/**' },
  { tool: 'mcp__fs__*', action: 'deny', pattern: '**/secret/**' },
];

describe('a deny rule on the paths of a real MCP filesystem server (@modelcontextprotocol/server-filesystem)', () => {
  it('binds every path argument, resolved like read\'s: through a symlinked folder, through secret/../secret, in arrays and second arguments', async () => {
    f = await startFixture();
    await f.workspace.file('notes/a.txt', 'hello from a file');
    await f.workspace.file('secret/key', 'THE-SECRET');
    await symlink(join(f.workspace.dir, 'secret'), join(f.workspace.dir, 'link'));
    const calls = [
      call('read', { path: 'secret/../secret/key' }),
      call('read', { path: 'link/key' }),
      call('mcp__fs__read_text_file', { path: 'notes/a.txt' }),
      call('mcp__fs__read_text_file', { path: 'secret/../secret/key' }),
      call('mcp__fs__read_text_file', { path: 'link/key' }),
      call('mcp__fs__read_text_file', { path: join(f.workspace.dir, 'link/key') }),
      call('mcp__fs__read_text_file', { path: `file://${join(f.workspace.dir, 'link/key')}` }),
      call('mcp__fs__read_multiple_files', { paths: ['notes/a.txt', 'link/key'] }),
      call('mcp__fs__move_file', { source: 'notes/a.txt', destination: 'link/stolen.txt' }),
    ];
    f.route({ main: steps({ toolCalls: calls }) });
    const engine = f.engine({ mcpServers: { fs: filesystemServer(f.workspace.dir) }, permissionRules: rules });
    const events = await collect(engine.stream('go'));
    const ends = own(events, 'ToolCallEnd');
    expect(ends.map((e) => e.toolName)).toEqual(calls.map((c) => c.name));
    // The control: the server works, and reads an allowed file.
    expect(ends[2]!.text).toBe('hello from a file');
    for (const [i, end] of ends.entries()) {
      if (i === 2) continue;
      expect(end.text, `call ${i}: ${JSON.stringify(calls[i])}`).toMatch(/^ERROR: Permission denied: .*\*\*\/secret\/\*\*/);
      expect(end.text).not.toContain('THE-SECRET');
    }
    expect(events.at(-1)!.type).toBe('RunEnd');
  });
});
