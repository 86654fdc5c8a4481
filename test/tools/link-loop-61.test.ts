import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import { closedAfterEach } from '../support/closed-after-each.js';
import { collect, own } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

// A link that always was a loop (`loop -> loop`, `a -> b -> a`) is no link swapped in at
// the last moment: trying again cannot help, so the model is told it is a loop.

const fresh = toolContextPerTest();
const open = closedAfterEach<{ server: FakeOpenAIServer }>(['server']);

describe('a symbolic link loop', () => {
  it('read, write and edit say it is a loop, not that it became a link', async () => {
    const ws = fresh.ws.dir;
    await symlink('loop', join(ws, 'loop'));
    await symlink('b', join(ws, 'a'));
    await symlink('a', join(ws, 'b'));
    open.server = await FakeOpenAIServer.start({
      replies: [
        {
          toolCalls: [
            { name: 'read', arguments: { path: 'loop' } },
            { name: 'write', arguments: { path: 'loop', content: 'x' } },
            { name: 'edit', arguments: { path: 'loop', old_string: 'a', new_string: 'b' } },
            { name: 'read', arguments: { path: 'a' } },
          ],
        },
        { text: 'done' },
      ],
    });
    const agent = new ReActAgent({ model: openAIModelFor(open.server), workspace: ws, tools: createBuiltinTools() });
    const ends = own(await collect(agent.stream('go')), 'ToolCallEnd') as { error?: string }[];
    const loop = (path: string, undone: string): string =>
      `${path} is a symbolic link loop (it, or a link on its way, leads back to itself), so nothing was ${undone}; give the path of a file instead`;
    expect(ends.map((end) => end.error)).toEqual([loop('loop', 'read'), loop('loop', 'written'), loop('loop', 'changed'), loop('a', 'read')]);
  });
});
