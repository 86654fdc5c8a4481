import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DefinitionError, defineAgent, parseAgentMarkdown } from '../../src/subagent/index.js';
import { renameAliases } from '../../src/subagent/key-aliases.js';
import { readSkill } from '../../src/subagent/skills/read-skill.js';
import { resolveSkills } from '../../src/subagent/skills/resolve-skills.js';
import { standardSkillDirs } from '../../src/subagent/skills/skill.js';
import { definitionRefusal } from './definition-refusal.js';

const FILE = '/w/.rxharness/agents/sneaky.md';
const parse = (front: string) => parseAgentMarkdown(`---\nname: sneaky\ndescription: d\n${front}\n---\nbody\n`, { source: 'workspace', file: FILE });

const parseError = (front: string): DefinitionError => definitionRefusal(() => parse(front));

let root: string | undefined;
afterEach(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
  root = undefined;
});

describe('front matter keys that would set a prototype (a hostile workspace definition)', () => {
  // Each value is refused when written plainly; under `__proto__` it used to become the
  // prototype of the checked fields, so the definition read it unchecked.
  it.each([
    ['a skill name leaving the skills folder', 'skills: ["../../../outside"]'],
    ['a negative maxSteps', 'maxSteps: -5'],
    ['an a2a URL of another scheme', 'a2a: "ftp://example.com/card.json"'],
  ])('refuses %s hidden under __proto__, naming the file and the key', (_, line) => {
    expect(() => parse(line)).toThrow(DefinitionError);
    const error = parseError(`__proto__:\n  ${line}`);
    expect(error.file).toBe(FILE);
    expect(error.message).toContain(`${FILE}: front matter has the key "__proto__", which no definition may use`);
  });

  it.each([
    ['constructor', 'constructor:\n  maxSteps: 3', 'front matter has the key "constructor"'],
    ['prototype', 'prototype: 1', 'front matter has the key "prototype"'],
    ['a nested __proto__', 'settings:\n  __proto__:\n    temperature: 9', 'front matter at "settings" has the key "__proto__"'],
    ['__proto__ in a permission rule', 'permissionRules:\n  - toolName: bash\n    __proto__:\n      behavior: ALLOW', 'front matter at "permissionRules" > "0" has the key "__proto__"'],
    ['__proto__ in a key of the file\'s own', 'x-notes:\n  __proto__: {}', 'front matter at "x-notes" has the key "__proto__"'],
  ])('refuses %s', (_, front, words) => {
    expect(parseError(front).message).toContain(words);
  });

  it('refuses __proto__ from code too (parsed JSON keeps it as an own key)', () => {
    const extra = JSON.parse('{"__proto__": {"maxSteps": -5}}') as Record<string, unknown>;
    expect(() => defineAgent({ name: 'a', description: 'd', systemPrompt: 'p', extra })).toThrow('definition has the key "__proto__"');
  });

  it('renames keys into an object without a prototype, so a "__proto__" key stays a key', () => {
    const given = JSON.parse('{"name": "a", "__proto__": {"maxSteps": -5}, "max_turns": 3}') as Record<string, unknown>;
    const { fields } = renameAliases(given);
    expect(Object.getPrototypeOf(fields)).toBeNull();
    expect(Object.keys(fields)).toEqual(['name', '__proto__', 'maxSteps']);
    expect(fields['maxSteps']).toBe(3);
  });
});

describe('a skill name that would leave the skills folder', () => {
  it.each(['../../../outside', 'a/b', '..', 'a\\b'])('is refused by the skill reader: %j', async (name) => {
    const dir = (root = await realpath(await mkdtemp(join(tmpdir(), 'rxharness-skill-name-'))));
    expect(() => readSkill({ path: join(dir, 'skills'), source: 'user' }, name)).toThrow(`${JSON.stringify(name)} is not a skill name`);
  });

  it('is not loaded, even from a definition that got past the schema', async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'rxharness-skill-name-')));
    const workspace = join(root, 'ws');
    const name = '../../../outside';
    await mkdir(join(workspace, '.rxharness', 'skills'), { recursive: true });
    await mkdir(join(root, 'outside'), { recursive: true });
    await writeFile(join(root, 'outside', 'SKILL.md'), `---\nname: "${name}"\ndescription: outside the workspace\n---\nTEXT FROM OUTSIDE\n`);
    // A definition object as code could hand one over, not through buildDefinition.
    const definition = { ...parse(''), skills: [name] };
    const { skills, problems } = resolveSkills(definition, standardSkillDirs({ workspace, home: join(root, 'home') }), false);
    expect(skills).toEqual([]);
    expect(problems).toEqual([`skill "${name}" is not loaded: "${name}" is not a skill name: a skill name is the name of its folder (letters, digits, "_" and "-"; no "/", "\\" or "..")`]);
  });
});
