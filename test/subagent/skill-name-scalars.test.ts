/**
 * A skill folder may be named `123`, `true`, `null` or `1e3` (letters, digits, `_` and `-`),
 * but its front matter's `name: 123` is read by YAML as a number, and the skill is refused for
 * a name that is not its folder's. The refusal says why and what to write, and the quoted
 * name loads.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readSkill } from '../../src/subagent/skills/read-skill.js';
import type { SkillDir } from '../../src/subagent/skills/skill.js';
import { TempDir } from './temp-agents.js';

let temp: TempDir | undefined;
afterEach(() => temp?.remove());

const skillFile = (name: string, description = 'Does things.'): string => `---\nname: ${name}\ndescription: ${description}\n---\nTHE BODY\n`;

describe('a skill whose folder name YAML reads as a number, a boolean or null', () => {
  it.each(['123', 'true', 'null', '0x1F', '1e3'])('%s: refused with the quotes to add, and loaded once quoted', async (name) => {
    temp = await TempDir.create();
    const dir: SkillDir = { path: temp.join('skills'), source: 'user' };
    await temp.write({ [`skills/${name}/SKILL.md`]: skillFile(name) });
    expect(() => readSkill(dir, name)).toThrow(`YAML reads ${name} so: write it in quotes, name: "${name}"`);
    await temp.write({ [`skills/${name}/SKILL.md`]: skillFile(`"${name}"`, 'Quoted now.') });
    expect(readSkill(dir, name)).toMatchObject({ name, description: 'Quoted now.', body: 'THE BODY' });
  });

  it('a number that is not the folder\'s name gets no such hint; a missing name gets it when the folder needs quotes', async () => {
    temp = await TempDir.create();
    const dir: SkillDir = { path: temp.join('skills'), source: 'user' };
    await temp.write({ 'skills/style/SKILL.md': skillFile('123'), 'skills/456/SKILL.md': '---\ndescription: No name.\n---\nB\n' });
    expect(() => readSkill(dir, 'style')).toThrow(/must be the folder's name "style", got the number 123$/);
    expect(() => readSkill(dir, '456')).toThrow(/must be the folder's name "456", got a undefined \(YAML reads 456 so/);
  });
});
