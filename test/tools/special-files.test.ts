import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEditTool } from '../../src/tools/builtin/edit.js';
import { createReadTool } from '../../src/tools/builtin/read.js';
import { createWriteTool } from '../../src/tools/builtin/write.js';
import { createToolContext, makeWorkspace, runTool, type TestWorkspace } from '../support/tool-context.js';

// A named pipe planted in the workspace: opening one to write with no reader blocked a
// libuv worker thread for good, and four such writes froze every file operation of the
// process (and a run with a FileSessionStore never ended). The tools open without blocking
// and refuse anything but a regular file, before anything is cut or written.

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  // Should an open still wait on a pipe (the bug), a reader for each frees its worker thread.
  for (let i = 0; i < 4; i++) {
    try {
      execFileSync('timeout', ['0.2', 'cat', join(ws.dir, `f${i}`)], { stdio: 'ignore' });
    } catch {
      // no such pipe, or nothing to read
    }
  }
  await ws.cleanup();
});

function mkfifo(name: string): string {
  const path = join(ws.dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

describe('named pipes in the workspace', () => {
  it('write refuses pipes with no reader at once, and the process can still read files', async () => {
    for (let i = 0; i < 4; i++) mkfifo(`f${i}`);
    await ws.file('plain.txt', 'hello');
    const write = createWriteTool();
    const results = await Promise.all([0, 1, 2, 3].map((i) => runTool(write, { path: `f${i}`, content: 'x' }, createToolContext({ workspace: ws.dir }))));
    for (const [i, result] of results.entries()) {
      expect(result.error).toBe(`f${i} is not a regular file (a named pipe, a socket or a device), so nothing was written; write only writes regular files`);
    }
    // Every worker thread is free: a plain read goes through.
    expect(await readFile(join(ws.dir, 'plain.txt'), 'utf8')).toBe('hello');
  });

  it('write does not write into a pipe that has a reader', async () => {
    const pipe = mkfifo('f0');
    // A reader that is surely there (opened without waiting for a writer) and never blocks.
    const reader = await open(pipe, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const result = await runTool(createWriteTool(), { path: 'f0', content: 'secret' }, createToolContext({ workspace: ws.dir }));
      expect(result.error).toMatch(/^f0 is not a regular file/);
      const { bytesRead } = await reader.read(Buffer.alloc(16), 0, 16, null).catch(() => ({ bytesRead: 0 }));
      expect(bytesRead).toBe(0);
    } finally {
      await reader.close();
    }
  });

  it('read and edit refuse a pipe with no writer without waiting on it', async () => {
    mkfifo('f0');
    const context = createToolContext({ workspace: ws.dir });
    expect((await runTool(createReadTool(), { path: 'f0' }, context)).error).toBe('f0 is not a regular file');
    const edited = await runTool(createEditTool(), { path: 'f0', old_string: 'a', new_string: 'b' }, context);
    expect(edited.error).toBe('f0 is not a regular file (a named pipe, a socket or a device); edit only changes regular files');
  });
});
