import { cpSync, linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveSkills } from '../../src/subagent/skills/resolve-skills.js';
import { standardSkillDirs } from '../../src/subagent/skills/skill.js';
import { testAgent } from '../support/agent-turns.js';

// pnpm (its default import method) installs a package's files as hard links into its store:
// a skill shipped in a package, linked into .rxharness/skills from node_modules, has 2 links.
// A workspace file with another hard link stays refused (its other name cannot be checked),
// but the message says why such a file is met and what to do instead, and both ways work.

const PACKAGE = ['node_modules', '.pnpm', 'skills-pack@1.0.0', 'node_modules', 'skills-pack', 'skills', 'lint'];
const SKILL = '---\nname: lint\ndescription: The lint skill.\n---\nRun the linter.\n';

let root: string;
let ws: string;
let home: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'rxharness-pnpm-skill-')));
  ws = join(root, 'ws');
  home = join(root, 'home');
  const store = join(home, '.local', 'share', 'pnpm', 'store', 'v3', 'files', 'ab');
  mkdirSync(store, { recursive: true });
  writeFileSync(join(store, 'cdef'), SKILL);
  mkdirSync(join(ws, ...PACKAGE), { recursive: true });
  linkSync(join(store, 'cdef'), join(ws, ...PACKAGE, 'SKILL.md'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const resolveLint = () => resolveSkills(testAgent('local', { skills: ['lint'] }), standardSkillDirs({ workspace: ws, home }), true);

describe('a skill installed by pnpm (hard-linked to its store)', () => {
  it('linked into the workspace skills: refused, the message naming pnpm and the ways around it', () => {
    mkdirSync(join(ws, '.rxharness', 'skills'), { recursive: true });
    symlinkSync(join('..', '..', ...PACKAGE), join(ws, '.rxharness', 'skills', 'lint'));
    const { skills, problems } = resolveLint();
    expect(skills).toEqual([]);
    expect(problems).toEqual([
      `skill "lint" is not loaded: ${join(ws, '.rxharness', 'skills', 'lint', 'SKILL.md')}: has 2 hard links: its other name may be a file ` +
        "outside the workspace, so it is not read (pnpm installs a package's files as hard links to its store); copy it in as a file " +
        'of its own rather than linking to it (cp -r a skill folder out of node_modules), or keep it in your own ~/.rxharness/skills ' +
        'or ~/.rxharness/agents, where hard links are read',
    ]);
  });

  it('copied into the workspace skills (cp -r): loads', () => {
    cpSync(join(ws, ...PACKAGE), join(ws, '.rxharness', 'skills', 'lint'), { recursive: true });
    const { skills, problems } = resolveLint();
    expect(problems).toEqual([]);
    expect(skills.map((s) => [s.name, s.source, s.body])).toEqual([['lint', 'workspace', 'Run the linter.']]);
  });

  it('linked from your own ~/.rxharness/skills: loads, hard links and all', () => {
    mkdirSync(join(home, '.rxharness', 'skills'), { recursive: true });
    symlinkSync(join(ws, ...PACKAGE), join(home, '.rxharness', 'skills', 'lint'));
    const { skills, problems } = resolveLint();
    expect(problems).toEqual([]);
    expect(skills.map((s) => [s.name, s.source, s.body])).toEqual([['lint', 'user', 'Run the linter.']]);
  });
});
