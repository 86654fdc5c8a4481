import { realpath, symlink } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverAgents, parseAgentMarkdown, standardAgentDirs } from '../../src/subagent/index.js';
import { resolveSkills } from '../../src/subagent/skills/resolve-skills.js';
import { standardSkillDirs } from '../../src/subagent/skills/skill.js';
import { agentFile, TempDir } from './temp-agents.js';

// A cloned repository's .rxharness/agents/ may hold links. One that leads out of the workspace
// would have the engine read a file of yours (another repository's private agent, a Claude
// Code agent in your home folder) and put its text into a prompt, as the `read` tool, confined
// to the workspace, never would. A skill's SKILL.md is held to its folder the same way.

let temp: TempDir;
let root: string;
beforeEach(async () => {
  temp = await TempDir.create();
  root = await realpath(temp.path);
});
afterEach(async () => { await temp.remove(); });

const at = (...parts: string[]) => [root, ...parts].join('/');
const PRIVATE = agentFile('private', '', 'THE PRIVATE PROMPT');

async function discover() {
  const found = await discoverAgents(standardAgentDirs({ workspace: at('ws'), home: at('home') }));
  return { ...found, definitions: found.definitions.filter((d) => d.source !== 'builtin') };
}

describe('a link in the workspace\'s agents folder', () => {
  it('is followed when it stays inside the workspace', async () => {
    await temp.write({ 'ws/docs/agents/kept.md': agentFile('kept'), 'ws/shared/in-folder.md': agentFile('in-folder'), 'ws/.rxharness/agents/.keep': '' });
    await symlink(at('ws', 'docs', 'agents', 'kept.md'), at('ws', '.rxharness', 'agents', 'kept.md'));
    await symlink('../../shared', at('ws', '.rxharness', 'agents', 'shared'));
    const { definitions, diagnostics } = await discover();
    expect(definitions.map((d) => [d.name, d.source])).toEqual([['kept', 'workspace'], ['in-folder', 'workspace']]);
    expect(diagnostics).toEqual([]);
  });

  it('to a file outside the workspace is not read: a diagnostic says where it leads', async () => {
    await temp.write({ 'other-repo/.rxharness/agents/private.md': PRIVATE, 'ws/.rxharness/agents/own.md': agentFile('own') });
    // Relative, as a repository would ship it: it leads wherever the clone sits beside others.
    await symlink('../../../other-repo/.rxharness/agents/private.md', at('ws', '.rxharness', 'agents', 'stolen.md'));
    const { definitions, diagnostics } = await discover();
    expect(definitions.map((d) => d.name)).toEqual(['own']);
    expect(diagnostics).toEqual([{
      file: at('ws', '.rxharness', 'agents', 'stolen.md'),
      reason: `is a symbolic link leading out of the workspace (to ${at('other-repo', '.rxharness', 'agents', 'private.md')}); a definition in the workspace must be a file of the workspace: copy it in instead`,
    }]);
    expect(JSON.stringify(definitions)).not.toContain('THE PRIVATE PROMPT');
  });

  it('to a folder outside the workspace reads none of its files', async () => {
    await temp.write({ 'outside/private.md': PRIVATE, 'ws/.rxharness/agents/.keep': '' });
    await symlink(at('outside'), at('ws', '.rxharness', 'agents', 'linked'));
    const { definitions, diagnostics } = await discover();
    expect(definitions).toEqual([]);
    expect(diagnostics.map((d) => [d.file, d.reason.split(' (')[0]])).toEqual([
      [at('ws', '.rxharness', 'agents', 'linked', 'private.md'), 'is a symbolic link leading out of the workspace'],
    ]);
  });

  it('when the agents folder itself leads out of the workspace, reads none of its files', async () => {
    await temp.write({ 'outside/private.md': PRIVATE, 'ws/.rxharness/.keep': '' });
    await symlink(at('outside'), at('ws', '.rxharness', 'agents'));
    const { definitions, diagnostics } = await discover();
    expect(definitions).toEqual([]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]?.reason).toContain(`leading out of the workspace (to ${at('outside', 'private.md')})`);
  });

  it('in your own ~/.rxharness/agents/ is followed anywhere (a shared folder linked in)', async () => {
    await temp.write({ 'outside/private.md': PRIVATE, 'home/.rxharness/agents/.keep': '' });
    await symlink(at('outside', 'private.md'), at('home', '.rxharness', 'agents', 'private.md'));
    const { definitions, diagnostics } = await discover();
    expect(definitions.map((d) => [d.name, d.source])).toEqual([['private', 'user']]);
    expect(diagnostics).toEqual([]);
  });
});

const skillText = (name: string, body: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n${body}\n`;

describe('a workspace skill folder that is a link', () => {
  const writer = () => parseAgentMarkdown(agentFile('writer', 'skills: [kept, stolen]\n'), { source: 'workspace', file: at('ws', '.rxharness', 'agents', 'writer.md') });

  it('is read when it stays inside the workspace, and refused when it leads out of it', async () => {
    await temp.write({
      'ws/shared-skills/kept/SKILL.md': skillText('kept', 'KEPT BODY'),
      'other-repo/.rxharness/skills/stolen/SKILL.md': skillText('stolen', 'THE PRIVATE SKILL'),
      'ws/.rxharness/skills/.keep': '',
    });
    await symlink('../../shared-skills/kept', at('ws', '.rxharness', 'skills', 'kept'));
    await symlink('../../../other-repo/.rxharness/skills/stolen', at('ws', '.rxharness', 'skills', 'stolen'));
    const { skills, problems } = resolveSkills(writer(), standardSkillDirs({ workspace: at('ws'), home: at('home') }), false);
    expect(skills.map((skill) => [skill.name, skill.body])).toEqual([['kept', 'KEPT BODY']]);
    expect(problems).toEqual([
      `skill "stolen" is not loaded: ${at('ws', '.rxharness', 'skills', 'stolen', 'SKILL.md')}: is a symbolic link leading out of the workspace ` +
        `(to ${at('other-repo', '.rxharness', 'skills', 'stolen', 'SKILL.md')}); a workspace skill must be a file of the workspace: copy it in instead`,
    ]);
  });
});
