import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { mkdir, realpath, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveSkills, withSkills } from '../../src/subagent/skills/resolve-skills.js';
import { standardSkillDirs } from '../../src/subagent/skills/skill.js';
import { testAgent } from '../support/agent-turns.js';
import { TempDir } from './temp-agents.js';

// The links on a skill's way are checked, then the file is opened with O_NOFOLLOW, which
// refuses a link as the last part only: a process of the workspace swapping the skill's folder
// for a link out (skills/evil -> ~/.ssh) between the check and the open had the file beyond
// it read into the system prompt. The file opened is checked to be the one checked.

const SWAPPER = fileURLToPath(new URL('./swap-folder-link.mjs', import.meta.url));
const SECRET = 'OUTSIDE SECRET';
const skillText = (body: string) => `---\nname: evil\ndescription: The evil skill.\n---\n${body}\n`;
/** Reads that saw the swap land between the check and the open, enough to know the race was run. */
const RACES_WANTED = 3;
const MAX_READS = 200_000;

let temp: TempDir;
let swapper: ChildProcess | undefined;
beforeEach(async () => {
  temp = await TempDir.create();
});
afterEach(async () => {
  if (swapper !== undefined && swapper.exitCode === null) {
    const exited = once(swapper, 'exit');
    swapper.kill();
    await exited;
  }
  swapper = undefined;
  await temp.remove();
});

describe('a workspace skill folder swapped for a link out while it is read', () => {
  // Up to a minute: each read races another process on a machine that may be busy.
  it('never puts the file beyond the link into the system prompt, and says what happened', { timeout: 60_000 }, async () => {
    const root = await realpath(temp.path);
    const workspace = join(root, 'ws');
    const skills = join(workspace, '.rxharness', 'skills');
    await temp.write({ [join('ws', '.rxharness', 'skills', 'evil', 'SKILL.md')]: skillText('INSIDE BODY'), [join('home', '.ssh', 'SKILL.md')]: skillText(SECRET) });
    await mkdir(join(root, 'home', '.rxharness'), { recursive: true });
    await symlink(join(root, 'home', '.ssh'), join(skills, 'evil.link'));
    swapper = spawn(process.execPath, [SWAPPER, skills, 'evil'], { stdio: ['ignore', 'pipe', 'inherit'] });
    await once(swapper.stdout!, 'data');

    const agent = testAgent('local', { skills: ['evil'] });
    const dirs = standardSkillDirs({ workspace, home: join(root, 'home') });
    let races = 0;
    let leaks = 0;
    let inside = 0;
    let raceProblem = '';
    // Until the race was hit enough and a plain read came through too (a busy machine may hit the races first).
    for (let read = 0; read < MAX_READS && (races + leaks < RACES_WANTED || inside === 0); read += 1) {
      const { skills: loaded, problems } = resolveSkills(agent, dirs, true);
      // What the model would get as the child's system prompt.
      const prompt = withSkills(agent.systemPrompt, loaded);
      if (prompt.includes(SECRET)) leaks += 1;
      if (prompt.includes('INSIDE BODY')) inside += 1;
      const race = problems.find((p) => p.includes('swapped in'));
      if (race !== undefined) {
        races += 1;
        raceProblem = race;
      }
    }
    expect(leaks).toBe(0);
    expect(races).toBeGreaterThanOrEqual(RACES_WANTED);
    expect(inside).toBeGreaterThan(0);
    expect(raceProblem).toMatch(
      new RegExp(`^skill "evil" is not loaded: ${join(skills, 'evil', 'SKILL.md')}: was reached through a symbolic link swapped in for one of its folders as it was read .*copy it in instead$`),
    );
  });
});
