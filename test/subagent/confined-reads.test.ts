import { link, mkdir, realpath, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverAgents, standardAgentDirs } from '../../src/subagent/index.js';
import { readBoundedFile } from '../../src/subagent/read-bounded-file.js';
import { agentFile, TempDir } from './temp-agents.js';

// A workspace file (a definition, a skill) is read by the real path just checked to lie in the
// workspace, with no link followed: not through a folder swapped for a link since the check,
// and not when the file has another hard link, whose other name may be a file of yours.

let temp: TempDir;
let root: string;
beforeEach(async () => {
  temp = await TempDir.create();
  root = await realpath(temp.path);
});
afterEach(async () => { await temp.remove(); });

const at = (...parts: string[]) => join(root, ...parts);
const OPTIONS = { maxBytes: 1024, what: 'a test file', confined: true } as const;
const HARD_LINKS = /^has 2 hard links: its other name may be a file outside the workspace, so it is not read \(pnpm installs a package's files as hard links to its store\); copy it in as a file of its own rather than linking to it \(cp -r a skill folder out of node_modules\), or keep it in your own ~\/\.rxharness\/skills or ~\/\.rxharness\/agents, where hard links are read$/;

describe('readBoundedFile confined', () => {
  it('reads the file at its real path', async () => {
    await temp.write({ 'ws/a/file.md': 'INSIDE' });
    expect(readBoundedFile(at('ws', 'a', 'file.md'), OPTIONS)).toBe('INSIDE');
  });

  it('refuses a path one of whose folders became a link after it was resolved', async () => {
    await temp.write({ 'outside/file.md': 'OUTSIDE SECRET', 'ws/.keep': '' });
    // The path as it was checked, with `a` now a link out (the swap after the check).
    await symlink(at('outside'), at('ws', 'a'));
    expect(() => readBoundedFile(at('ws', 'a', 'file.md'), OPTIONS)).toThrow(/^was reached through a symbolic link swapped in for one of its folders as it was read.*copy it in instead$/);
  });

  it('refuses a file with another hard link, saying how to make it a file of its own', async () => {
    await temp.write({ 'outside/file.md': 'OUTSIDE SECRET', 'ws/.keep': '' });
    await link(at('outside', 'file.md'), at('ws', 'file.md'));
    expect(() => readBoundedFile(at('ws', 'file.md'), OPTIONS)).toThrow(HARD_LINKS);
    // Not confined (your own folders, skills with noFollow): read as it is.
    expect(readBoundedFile(at('ws', 'file.md'), { ...OPTIONS, confined: false, noFollow: true })).toBe('OUTSIDE SECRET');
  });

  it('refuses a link as the last part, as noFollow alone does', async () => {
    await temp.write({ 'outside/file.md': 'OUTSIDE SECRET', 'ws/.keep': '' });
    await symlink(at('outside', 'file.md'), at('ws', 'file.md'));
    expect(() => readBoundedFile(at('ws', 'file.md'), OPTIONS)).toThrow(/ELOOP/);
    expect(() => readBoundedFile(at('ws', 'file.md'), { ...OPTIONS, confined: false, noFollow: true })).toThrow(/ELOOP/);
    expect(readBoundedFile(at('ws', 'file.md'), { ...OPTIONS, confined: false })).toBe('OUTSIDE SECRET');
  });
});

describe('a definition file hard-linked to a file outside the workspace', () => {
  it("in the workspace's agents folder is not loaded, with a diagnostic; in your own folder it is", async () => {
    await temp.write({ 'outside/private.md': agentFile('private', '', 'THE PRIVATE PROMPT'), 'outside/mine.md': agentFile('mine') });
    await mkdir(at('ws', '.rxharness', 'agents'), { recursive: true });
    await mkdir(at('home', '.rxharness', 'agents'), { recursive: true });
    await link(at('outside', 'private.md'), at('ws', '.rxharness', 'agents', 'stolen.md'));
    await link(at('outside', 'mine.md'), at('home', '.rxharness', 'agents', 'mine.md'));
    const found = await discoverAgents(standardAgentDirs({ workspace: at('ws'), home: at('home') }));
    const definitions = found.definitions.filter((d) => d.source !== 'builtin');
    expect(definitions.map((d) => [d.name, d.source])).toEqual([['mine', 'user']]);
    expect(JSON.stringify(definitions)).not.toContain('THE PRIVATE PROMPT');
    expect(found.diagnostics).toEqual([{ file: at('ws', '.rxharness', 'agents', 'stolen.md'), reason: expect.stringMatching(HARD_LINKS) }]);
  });
});
