import { link, mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { collect } from '../support/collect-events.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import type { DelegationFixture } from '../support/delegation-fixture.js';

// A cloned repository's agent names its own skill, and the repository plants links so that the
// skill's SKILL.md is a file of yours (~/.ssh, another repository's private skill): read, it
// would go to the model in the agent's system prompt. Every such skill is refused with a
// diagnostic saying what to do, and nothing of the file reaches the model.

const startFixture = delegationFixturePerTest();

const SECRET = 'OUTSIDE SECRET: never for the model';
const skillText = (name: string, body: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n${body}\n`;

async function write(file: string, text: string): Promise<string> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

/** Runs a task of `local`, which names the skill `evil` (the workspace's skills trusted); the diagnostics and what the model got. */
async function delegate(f: DelegationFixture): Promise<{ reasons: string[]; sent: string; prompt: string }> {
  f.route({ main: steps(taskReply('local', 'go')), '*': () => ({ text: 'done' }) });
  const engine = f.engine({ trustWorkspaceAgents: true }, [testAgent('local', { skills: ['evil'] })]);
  await collect(engine.stream('delegate'));
  const prompt = String(f.requestsOf('local')[0]!.body.messages![0]!.content);
  return { reasons: engine.agents.diagnostics().map((d) => d.reason), sent: JSON.stringify(f.server.requests.map((r) => r.body)), prompt };
}

const SKILL = join('.rxharness', 'skills', 'evil', 'SKILL.md');

describe('a workspace skill planted as a link out of the workspace', () => {
  it.each([
    // [the link in the workspace, where it leads (below home), where the SKILL.md is (below home)]
    ['the skill folder', join('.rxharness', 'skills', 'evil'), '.ssh', join('.ssh', 'SKILL.md')],
    ['the skills folder', join('.rxharness', 'skills'), join('other-repo', 'skills'), join('other-repo', 'skills', 'evil', 'SKILL.md')],
    ['the .rxharness folder', '.rxharness', join('other-repo', '.rxharness'), join('other-repo', SKILL)],
  ])('%s linked out: refused saying what to do, nothing of it sent', async (_, linked, target, file) => {
    const f = await startFixture();
    await write(join(f.home, file), skillText('evil', SECRET));
    await mkdir(dirname(join(f.workspace.dir, linked)), { recursive: true });
    await symlink(join(f.home, target), join(f.workspace.dir, linked));
    const { reasons, sent, prompt } = await delegate(f);
    expect(sent).not.toContain('OUTSIDE SECRET');
    expect(prompt).not.toContain('## Skill: evil');
    expect(reasons).toEqual([
      `skill "evil" is not loaded: ${join(f.workspace.dir, SKILL)}: is a symbolic link leading out of the workspace (to ${join(f.home, file)}); ` +
        'a workspace skill must be a file of the workspace: copy it in instead',
    ]);
  });

  it('a SKILL.md hard-linked to a file outside the workspace: refused saying what to do, nothing of it sent', async () => {
    const f = await startFixture();
    const outside = await write(join(f.home, '.ssh', 'SKILL.md'), skillText('evil', SECRET));
    await mkdir(join(f.workspace.dir, '.rxharness', 'skills', 'evil'), { recursive: true });
    await link(outside, join(f.workspace.dir, SKILL));
    const { reasons, sent, prompt } = await delegate(f);
    expect(sent).not.toContain('OUTSIDE SECRET');
    expect(prompt).not.toContain('## Skill: evil');
    expect(reasons).toEqual([
      `skill "evil" is not loaded: ${join(f.workspace.dir, SKILL)}: has 2 hard links: its other name may be a file ` +
        "outside the workspace, so it is not read (pnpm installs a package's files as hard links to its store); copy it in as a file " +
        'of its own rather than linking to it (cp -r a skill folder out of node_modules), or keep it in your own ~/.rxharness/skills ' +
        'or ~/.rxharness/agents, where hard links are read',
    ]);
  });

  it('a skill of the workspace with no link loads as before', async () => {
    const f = await startFixture();
    await f.workspace.file(SKILL, skillText('evil', 'INSIDE BODY'));
    const { reasons, prompt } = await delegate(f);
    expect(prompt).toContain('## Skill: evil\n\nThe evil skill.\n\nINSIDE BODY');
    expect(reasons).toEqual([]);
  });
});

describe('your own skills folder', () => {
  it('may hold a hard-linked SKILL.md (a skill shared with another tool): it loads', async () => {
    const f = await startFixture();
    const shared = await write(join(f.home, '.claude', 'skills', 'style', 'SKILL.md'), skillText('style', 'SHARED STYLE'));
    await mkdir(join(f.home, '.rxharness', 'skills', 'style'), { recursive: true });
    await link(shared, join(f.home, '.rxharness', 'skills', 'style', 'SKILL.md'));
    f.route({ main: steps(taskReply('reviewer', 'go')), '*': () => ({ text: 'done' }) });
    const agent = testAgent('reviewer', { skills: ['style'] });
    const engine = f.engine({}, [agent]);
    await collect(engine.stream('delegate'));
    expect(String(f.requestsOf('reviewer')[0]!.body.messages![0]!.content)).toContain('SHARED STYLE');
    expect(engine.agents.diagnostics()).toEqual([]);
  });
});
