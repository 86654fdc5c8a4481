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
const rules: PermissionRule[] = [{ tool: 'mcp__fs__*', action: 'deny', pattern: 'secret/**' }];

describe('a path argument dressed as a URI of another scheme', () => {
  it('is judged as the path a server resolves it to when its ".." climbs over the scheme', async () => {
    f = await startFixture();
    await f.workspace.file('notes/a.txt', 'hello from a file');
    await f.workspace.file('secret/key', 'THE-SECRET');
    const calls = [
      call('mcp__fs__read_text_file', { path: 'notes/a.txt' }),
      call('mcp__fs__read_text_file', { path: 'ab:/../secret/key' }),
      call('mcp__fs__read_text_file', { path: 'https://../secret/key' }),
      call('mcp__fs__read_multiple_files', { paths: ['notes/a.txt', 'xy:z/../secret/key'] }),
    ];
    f.route({ main: steps({ toolCalls: calls }) });
    const engine = f.engine({ mcpServers: { fs: filesystemServer(f.workspace.dir) }, permissionRules: rules });
    const ends = own(await collect(engine.stream('go')), 'ToolCallEnd');
    expect(ends.map((e) => e.toolName)).toEqual(calls.map((c) => c.name));
    expect(ends[0]!.text).toBe('hello from a file');
    for (const [i, end] of ends.entries()) {
      if (i === 0) continue;
      expect(end.text, `call ${i}: ${JSON.stringify(calls[i])}`).toMatch(/^ERROR: Permission denied: .*secret\/\*\*/);
    }
  });
});
