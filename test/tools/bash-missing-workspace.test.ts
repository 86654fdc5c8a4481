import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { PermissionPolicy } from '../../src/permission/index.js';
import { createBashTool } from '../../src/tools/builtin/bash.js';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import { collect, own } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { createToolContext, runTool } from '../support/tool-context.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

// Node reports a missing working folder as the shell's ENOENT: `spawn /bin/bash ENOENT`
// sent the model (and the user) looking for a missing shell.
describe('bash when the workspace folder is gone', () => {
  const fresh = toolContextPerTest();
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('says the workspace folder no longer exists, when removed during a run', async () => {
    const dir = fresh.ws.dir;
    server = await FakeOpenAIServer.start({ replies: [{ toolCalls: [{ name: 'bash', arguments: { command: 'echo hi' } }] }, { text: 'done' }] });
    const agent = new ReActAgent({
      model: openAIModelFor(server),
      workspace: dir,
      tools: createBuiltinTools(),
      permissions: new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }] }),
    });
    await rm(dir, { recursive: true, force: true });
    const events = await collect(agent.stream('go'));
    const [end] = own(events, 'ToolCallEnd') as { error?: string }[];
    expect(end!.error).toBe(`Could not start the command: the workspace folder ${dir} no longer exists (or is not a folder): spawn ${existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh'} ENOENT`);
  });

  it('says so, as an error result, when the workspace folder became a file (spawn throws ENOTDIR)', async () => {
    const dir = fresh.ws.dir;
    await rm(dir, { recursive: true, force: true });
    await writeFile(dir, 'not a folder');
    try {
      const result = await runTool(createBashTool(), { command: 'echo hi' }, createToolContext({ workspace: dir }));
      expect(result.error).toMatch(new RegExp(`^Could not start the command: the workspace folder ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} no longer exists \\(or is not a folder\\): spawn ENOTDIR`));
    } finally {
      await rm(dir, { force: true });
    }
  });

  it('still blames the shell when the shell is what is missing', async () => {
    const result = await runTool(createBashTool({ shell: '/nonexistent/shell' }), { command: 'echo hi' }, createToolContext({ workspace: fresh.ws.dir }));
    expect(result.error).toBe('Could not start the command: spawn /nonexistent/shell ENOENT');
  });
});
