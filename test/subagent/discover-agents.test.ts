import { symlink } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverAgents } from '../../src/subagent/index.js';
import { agentFile, TempDir } from './temp-agents.js';

let temp: TempDir;
beforeEach(async () => { temp = await TempDir.create(); });
afterEach(async () => { await temp.remove(); });

describe('discoverAgents', () => {
  it('reads folders in the given order; the first definition of a name wins', async () => {
    await temp.write({
      'a/reviewer.md': agentFile('reviewer', 'model: first\n'),
      'a/only-a.md': agentFile('only-a'),
      'b/reviewer.md': agentFile('reviewer', 'model: second\n'),
      'b/only-b.md': agentFile('only-b'),
    });
    const { definitions, diagnostics } = await discoverAgents([
      { path: temp.join('a'), source: 'workspace' },
      { path: temp.join('b'), source: 'user' },
    ]);
    expect(definitions.map((d) => [d.name, d.source])).toEqual([
      ['only-a', 'workspace'], ['reviewer', 'workspace'], ['only-b', 'user'],
    ]);
    expect(definitions.find((d) => d.name === 'reviewer')?.model).toBe('first');
    expect(diagnostics).toEqual([{
      file: temp.join('b', 'reviewer.md'),
      reason: `agent "reviewer" is already defined by ${temp.join('a', 'reviewer.md')}; the first definition wins, this one is ignored`,
      // the user's own, hidden by the workspace's: said apart (`rxharness run` warns of it)
      agent: 'reviewer',
      hiddenBy: temp.join('a', 'reviewer.md'),
    }]);
  });

  it('takes the name from the front matter, not the file name, and records the absolute file', async () => {
    await temp.write({ 'a/some-file.md': agentFile('actual-name') });
    const { definitions } = await discoverAgents([{ path: temp.join('a'), source: 'dir' }]);
    expect(definitions.map((d) => d.name)).toEqual(['actual-name']);
    expect(definitions[0]?.file).toBe(temp.join('a', 'some-file.md'));
  });

  it('orders a folder\'s own files before its subfolders, each sorted by name', async () => {
    await temp.write({
      'a/b-sub/x.md': agentFile('nested-x'),
      'a/a-sub/y.md': agentFile('nested-y'),
      'a/z.md': agentFile('top-z'),
      'a/B.md': agentFile('top-B'),
      'a/dup/dup.md': agentFile('top-z'),
    });
    const { definitions, diagnostics } = await discoverAgents([{ path: temp.join('a'), source: 'dir' }]);
    expect(definitions.map((d) => d.name)).toEqual(['top-B', 'top-z', 'nested-y', 'nested-x']);
    expect(diagnostics.map((d) => d.file)).toEqual([temp.join('a', 'dup', 'dup.md')]);
  });

  it('skips dot-files, dot-folders and files that are not *.md', async () => {
    await temp.write({
      'a/.hidden.md': agentFile('dot-file'),
      'a/.git/agent.md': agentFile('dot-folder'),
      'a/sub/.private/agent.md': agentFile('nested-dot-folder'),
      'a/notes.txt': agentFile('txt'),
      'a/readme.markdown': agentFile('markdown'),
      'a/agent.md.bak': agentFile('bak'),
      'a/ok.md': agentFile('ok'),
    });
    const { definitions, diagnostics } = await discoverAgents([{ path: temp.join('a'), source: 'dir' }]);
    expect(definitions.map((d) => d.name)).toEqual(['ok']);
    expect(diagnostics).toEqual([]);
  });

  it('finds files at depth 3 and not at depth 4 (files in the folder itself are depth 1)', async () => {
    await temp.write({
      'a/d1.md': agentFile('depth-1'),
      'a/x/d2.md': agentFile('depth-2'),
      'a/x/y/d3.md': agentFile('depth-3'),
      'a/x/y/z/d4.md': agentFile('depth-4'),
    });
    const { definitions } = await discoverAgents([{ path: temp.join('a'), source: 'dir' }]);
    expect(definitions.map((d) => d.name)).toEqual(['depth-1', 'depth-2', 'depth-3']);
  });

  it('skips a missing folder silently', async () => {
    await temp.write({ 'b/ok.md': agentFile('ok') });
    const result = await discoverAgents([
      { path: temp.join('missing'), source: 'workspace' },
      { path: temp.join('b'), source: 'dir' },
    ]);
    expect(result.definitions.map((d) => d.name)).toEqual(['ok']);
    expect(result.diagnostics).toEqual([]);
  });

  it('reports a folder path that is a file', async () => {
    await temp.write({ 'plain.md': agentFile('plain') });
    const { definitions, diagnostics } = await discoverAgents([{ path: temp.join('plain.md'), source: 'dir' }]);
    expect(definitions).toEqual([]);
    expect(diagnostics).toEqual([{ file: temp.join('plain.md'), reason: 'is not a folder' }]);
  });

  it('turns invalid files into diagnostics and still returns the rest', async () => {
    await temp.write({
      'a/1-good.md': agentFile('good'),
      'a/2-no-name.md': '---\ndescription: d\n---\nbody\n',
      'a/3-bad-yaml.md': '---\nname: x\ndescription: [oops\n---\nbody\n',
      'a/4-no-front.md': 'Just text.\n',
      'a/5-good.md': agentFile('also-good'),
    });
    const { definitions, diagnostics } = await discoverAgents([{ path: temp.join('a'), source: 'dir' }]);
    expect(definitions.map((d) => d.name)).toEqual(['good', 'also-good']);
    expect(diagnostics.map((d) => d.file)).toEqual([
      temp.join('a', '2-no-name.md'), temp.join('a', '3-bad-yaml.md'), temp.join('a', '4-no-front.md'),
    ]);
    expect(diagnostics[0]?.reason).toBe('front matter has no "name"');
    expect(diagnostics[1]?.reason).toMatch(/^invalid YAML in front matter at line \d+/);
    expect(diagnostics[2]?.reason).toMatch(/^has no front matter/);
  });

  it('follows symbolic links to folders and files; a broken link to a .md file is a diagnostic', async () => {
    await temp.write({ 'shared/linked.md': agentFile('linked'), 'files/file.md': agentFile('via-file-link') });
    await temp.write({ 'a/own.md': agentFile('own') });
    await symlink(temp.join('shared'), temp.join('a', 'shared-link'));
    await symlink(temp.join('files', 'file.md'), temp.join('a', 'file-link.md'));
    await symlink(temp.join('nowhere.md'), temp.join('a', 'broken.md'));
    const { definitions, diagnostics } = await discoverAgents([{ path: temp.join('a'), source: 'dir' }]);
    expect(definitions.map((d) => d.name)).toEqual(['via-file-link', 'own', 'linked']);
    expect(diagnostics).toEqual([{ file: temp.join('a', 'broken.md'), reason: 'is a broken symbolic link' }]);
  });

  it('reads the folder of a symbolic-link loop once', async () => {
    await temp.write({ 'a/top.md': agentFile('top') });
    await symlink(temp.join('a'), temp.join('a', 'loop'));
    const { definitions, diagnostics } = await discoverAgents([{ path: temp.join('a'), source: 'dir' }]);
    expect(definitions.map((d) => d.name)).toEqual(['top']);
    // The loop leads back to a folder already read: it is not read again.
    expect(diagnostics).toEqual([{ file: temp.join('a', 'loop'), reason: `leads to a folder already read (${temp.join('a')}); it is not read again` }]);
  });

  it('scans a folder listed twice only once', async () => {
    await temp.write({ 'a/ok.md': agentFile('ok') });
    const dirs = [{ path: temp.join('a'), source: 'workspace' }, { path: `${temp.join('a')}/`, source: 'dir' }] as const;
    const { definitions, diagnostics } = await discoverAgents(dirs);
    expect(definitions.map((d) => d.source)).toEqual(['workspace']);
    expect(diagnostics).toEqual([]);
  });
});
