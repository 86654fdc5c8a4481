import * as fs from 'node:fs';
import { mkdirSync, mkdtempSync, readlinkSync, realpathSync as resolved, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Your own (home) skills may be linked anywhere and hard-linked, but their SKILL.md is still
// opened with O_NOFOLLOW: readSkill resolves it and checks it stays in its skill folder, and a
// link put in its place between that check and the open would be followed out of it (to
// ~/.ssh/id_rsa). The race is made certain: the real `realpathSync` is wrapped to make the swap
// right after it resolved the file, as another process could; every file operation is real.

const swap: { file?: string; target?: string } = {};
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  const realpathSync = Object.assign(
    (path: fs.PathLike, options?: fs.EncodingOption): string => {
      const at = real.realpathSync(path, options) as string;
      if (swap.file !== undefined && String(path) === swap.file) {
        real.renameSync(swap.file, `${swap.file}.old`);
        real.symlinkSync(swap.target!, swap.file);
        swap.file = undefined;
      }
      return at;
    },
    { native: real.realpathSync.native },
  );
  return { ...real, realpathSync, default: { ...real, realpathSync } };
});

const { readSkill } = await import('../../src/subagent/skills/read-skill.js');

const skillText = (body: string): string => `---\nname: shared\ndescription: The shared skill.\n---\n${body}\n`;

let root: string;
beforeEach(() => {
  root = resolved(mkdtempSync(join(tmpdir(), 'rxharness-home-swap-')));
});
afterEach(() => {
  swap.file = undefined;
  rmSync(root, { recursive: true, force: true });
});

describe('a SKILL.md of your own skills folder swapped for a link as it is read', () => {
  it('is refused (the link is not followed), and nothing beyond it is read', () => {
    const skills = join(root, 'home', '.rxharness', 'skills');
    const file = join(skills, 'shared', 'SKILL.md');
    mkdirSync(join(skills, 'shared'), { recursive: true });
    writeFileSync(file, skillText('INSIDE BODY'));
    mkdirSync(join(root, 'home', '.ssh'));
    writeFileSync(join(root, 'home', '.ssh', 'id_rsa'), skillText('OUTSIDE SECRET'));
    swap.file = file;
    swap.target = join(root, 'home', '.ssh', 'id_rsa');
    expect(() => readSkill({ path: skills, source: 'user' }, 'shared')).toThrow(`${file}: ELOOP`);
    // The swap did happen: the open met the link.
    expect(swap.file).toBeUndefined();
    expect(readlinkSync(file)).toBe(swap.target);
  });

  it('reads as before when nothing is swapped (a hard-linked skill of your own too)', () => {
    const skills = join(root, 'home', '.rxharness', 'skills');
    mkdirSync(join(skills, 'shared'), { recursive: true });
    writeFileSync(join(root, 'other-tool.md'), skillText('SHARED BODY'));
    fs.linkSync(join(root, 'other-tool.md'), join(skills, 'shared', 'SKILL.md'));
    expect(readSkill({ path: skills, source: 'user' }, 'shared')?.body).toContain('SHARED BODY');
  });
});
