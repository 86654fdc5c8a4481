import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import { relativeGlobProblem } from '../../src/tools/relative-glob.js';
import { collect, own } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

// On Linux `C:` is a folder name and `\setup.js` a file name like any other; only on Windows
// do they spell absolute paths. They were judged outside the workspace everywhere.
const posix = process.platform !== 'win32';

describe.runIf(posix)('names that look like Windows absolute paths, in a Linux workspace', () => {
  let server: FakeOpenAIServer | undefined;
  let ws: string | undefined;
  afterEach(async () => {
    await server?.close();
    if (ws) await rm(ws, { recursive: true, force: true });
  });

  it('are read, edited, searched and listed as the files they are', async () => {
    ws = await realpath(await mkdtemp(join(tmpdir(), 'win-names-')));
    await mkdir(join(ws, 'C:'));
    await writeFile(join(ws, 'C:', 'notes.txt'), 'TODO fix\n');
    await writeFile(join(ws, '\\setup.js'), 'TODO run\n');
    server = await FakeOpenAIServer.start({
      replies: [
        {
          toolCalls: [
            { name: 'read', arguments: { path: 'C:/notes.txt' } },
            { name: 'grep', arguments: { pattern: 'TODO' } },
            { name: 'glob', arguments: { pattern: '**/*' } },
            { name: 'list', arguments: {} },
            { name: 'read', arguments: { path: '\\setup.js' } },
            { name: 'edit', arguments: { path: 'C:/notes.txt', old_string: 'fix', new_string: 'fixed' } },
            { name: 'glob', arguments: { pattern: 'C:/*.txt' } },
          ],
        },
        { text: 'done' },
      ],
    });
    const agent = new ReActAgent({ model: openAIModelFor(server), workspace: ws, tools: createBuiltinTools() });
    const events = await collect(agent.stream('go'));
    const ends = own(events, 'ToolCallEnd') as { text: string; error?: string }[];
    expect(ends.map((e) => e.error)).toEqual(ends.map(() => undefined));
    const [read, grep, glob, list, readBackslash, , globDrive] = ends.map((e) => e.text);
    expect(read).toContain('TODO fix');
    expect(grep).toContain('C:/notes.txt');
    expect(grep).toContain('\\setup.js');
    expect(glob).toContain('C:/notes.txt');
    expect(glob).toContain('\\setup.js');
    expect(list).toContain('\\setup.js');
    expect(readBackslash).toContain('TODO run');
    expect(globDrive).toContain('C:/notes.txt');
    expect(await readFile(join(ws, 'C:', 'notes.txt'), 'utf8')).toBe('TODO fixed\n');
  });

  it('a glob starting with a drive letter is relative; one starting with / still is not', () => {
    expect(relativeGlobProblem('C:/*.txt', 'pattern')).toBeUndefined();
    expect(relativeGlobProblem('/etc/*', 'pattern')).toMatch(/must be relative/);
  });
});
