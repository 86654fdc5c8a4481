import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/fake-openai-server.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// Answers with how many user turns it was sent, so a remembered conversation shows.
const sandbox = sandboxPerTest({
  handler: (request: RecordedRequest) => ({ text: `turns: ${request.body.messages!.filter((m) => m.role === 'user').length}` }),
});

const run = sandbox.runJson;
const toolsOffered = (request: RecordedRequest) => (request.body.tools ?? []).map((t) => t.function?.name);

describe('rxharness run: flags', () => {
  it('--session NAME continues that conversation in the next invocation (kept in the workspace); without it each run starts afresh', async () => {
    expect((await run('--session', 'notes', 'remember 7')).code).toBe(0);
    const second = await run('--session', 'notes', 'what number?');
    expect(second.code).toBe(0);
    expect(second.cli.stdoutText()).toContain('turns: 2');
    const fresh = await run('what number?');
    expect(fresh.cli.stdoutText()).toContain('turns: 1');
    const empty = await run('--session', ' ', 'hi');
    expect(empty.code).toBe(2);
    expect(empty.cli.stderrText()).toContain('--session needs a name');
  });

  it('--max-depth 0 offers no delegation tools; the default offers task and multitask', async () => {
    await run('--max-depth', '0', 'hi');
    expect(toolsOffered(sandbox.server.requests[0]!)).not.toContain('task');
    await run('hi');
    expect(toolsOffered(sandbox.server.requests[1]!)).toEqual(expect.arrayContaining(['task', 'multitask']));
    const bad = await run('--max-depth', 'deep', 'hi');
    expect(bad.code).toBe(2);
    expect(bad.cli.stderrText()).toContain('--max-depth');
    const deep = await run('--max-depth', '65', 'hi');
    expect(deep.code).toBe(2); // a usage error, before any engine is made
    expect(deep.cli.stderrText()).toContain('--max-depth must be a whole number from 0 to 64, got "65"');
  });

  it('--agent-dir adds a folder of definitions (repeatable): its agent runs with @name', async () => {
    await sandbox.workspace.file('team/a/helper.md', '---\nname: helper\ndescription: Helps.\ntools: [read]\n---\nYou are the helper.\n');
    await sandbox.workspace.file('team/b/other.md', '---\nname: other\ndescription: Other.\n---\nYou are the other.\n');
    const { code } = await run('--agent-dir', 'team/a', '--agent-dir', 'team/b', '@helper', 'hi');
    expect(code).toBe(0);
    expect(String(sandbox.server.requests[0]!.body.messages![0]!.content)).toContain('You are the helper.');
    expect(toolsOffered(sandbox.server.requests[0]!)).toEqual(['read']);
    const missing = await run('@helper', 'hi');
    expect(missing.code).toBe(2);
    expect(missing.cli.stderrText()).toContain('unknown agent "helper"');
  });
});
