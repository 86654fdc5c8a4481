import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { cliSandbox, type CliSandbox } from './cli-sandbox.js';

// Claude Code spells tools with a capital (Bash); ours are lower case, and names are case-sensitive.
const REVIEWER = '---\nname: reviewer\ndescription: Reviews code. Read-only.\ndisallowedTools: Bash, Write, Edit\n---\nYou review.\n';
let sandbox: CliSandbox;
let server: FakeOpenAIServer;
beforeEach(async () => {
  sandbox = await cliSandbox();
  server = await FakeOpenAIServer.start({ handler: () => ({ text: 'done' }) });
  await sandbox.workspace.file('.rxharness/agents/reviewer.md', REVIEWER);
});
afterEach(async () => {
  await server.close();
  await sandbox.cleanup();
});

describe('a definition whose disallowedTools names no tool', () => {
  it('agents lists it as not loaded, saying which tool was meant, and exits 1', async () => {
    const io = sandbox.io();
    const code = await main(['agents', '--workspace', sandbox.workspace.dir], io);
    expect(code).toBe(1);
    expect(io.stdoutText()).toMatch(/1 definition file not loaded:\n .*reviewer\.md: disallowedTools names "Bash" \(did you mean "bash"\?\)/);
  });

  it('run @reviewer never gives the model the tools the file meant to take away', async () => {
    const io = sandbox.io({ OPENAI_API_KEY: 'k' });
    const code = await main(['run', '--model', 'm', '--base-url', server.baseURL, '--workspace', sandbox.workspace.dir, '@reviewer look'], io);
    const sent = server.requests.flatMap((request) => (request.body.tools ?? []).map((tool) => tool.function?.name));
    expect(sent).not.toContain('bash');
    expect(code).toBe(2);
    expect(io.stderrText()).toMatch(/agent "reviewer" was not loaded: \S*reviewer\.md: disallowedTools names "Bash"/);
  });
});
