import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HarnessEngine, ScriptedModel } from '../../src/index.js';
import { resolveWorkspacePath } from '../../src/tools/workspace-path.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

// A model's "path" of many kilobytes: no file has a path over PATH_MAX (4096 bytes), but
// resolving it one part at a time (a realpath each, every one failing) took seconds per
// call, minutes for 120 KB, past any tool timeout. It is refused at once, saying why.

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

describe('a path longer than any path', () => {
  it('is refused by resolveWorkspacePath, with its length and the limit', async () => {
    const path = 'a/'.repeat(5_000) + 'b';
    await expect(resolveWorkspacePath(ws.dir, path)).rejects.toThrow(
      /^the path "a\/a\/.* \[\.\.\. \d+ characters cut \.\.\.\] .*a\/b" is 10001 bytes long, more than the 4096 bytes a path may have, so no file has it; give a shorter path$/,
    );
  });

  it('fails the tool call and lets the run go on', async () => {
    const path = 'a/'.repeat(5_000) + 'b';
    const model = new ScriptedModel([{ toolCalls: [{ name: 'read', args: { path } }] }, { text: 'done' }]);
    const engine = new HarnessEngine({ model, workspace: ws.dir, homeDir: ws.home, subagentEnabled: false });
    try {
      const events = await lastValueFrom(engine.stream('read it').pipe(toArray()));
      const end = events.find((e) => e.type === 'ToolCallEnd');
      expect(end && 'error' in end ? end.error : undefined).toMatch(/is 10001 bytes long, more than the 4096 bytes a path may have/);
      expect(events.at(-1)?.type).toBe('RunEnd');
    } finally {
      await engine.close();
    }
  });

  it('judges a part over NAME_MAX under a linked folder by where the folder really is', async () => {
    const outside = await makeWorkspace('rxharness-outside-');
    try {
      await symlink(outside.dir, join(ws.dir, 'out'));
      const long = 'x'.repeat(300);
      expect(await resolveWorkspacePath(ws.dir, `out/${long}/f`)).toEqual({
        absolute: join(outside.dir, long, 'f'),
        relative: join(outside.dir, long, 'f'),
        inside: false,
      });
    } finally {
      await outside.cleanup();
    }
  });
});
