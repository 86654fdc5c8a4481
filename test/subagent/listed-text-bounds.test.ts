/**
 * A cloned repository plants definitions whose names and descriptions are huge. Every listed
 * agent's name and description go into the `task` and `multitask` descriptions and the main
 * agent's system prompt, sent with every request of the main agent: without bounds, one
 * 250 KB description (or 256 of 4 KB) made each request megabytes long and failed every run.
 * Discovery is synchronous: 256 files of 256 KiB of front matter held the process for half a
 * minute, so one folder's front matters are bounded too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { taskToolDescription } from '../../src/delegation/delegation-prompts.js';
import { AgentManager } from '../../src/subagent/agent-manager.js';
import { standardAgentDirs } from '../../src/subagent/agent-dirs.js';
import { MAX_AGENT_DESCRIPTION_CHARS, MAX_AGENT_NAME_CHARS } from '../../src/subagent/front-matter-schema.js';
import { frontMatterChars } from '../../src/subagent/front-matter.js';
import { MAX_FOLDER_YAML_CHARS, MAX_LISTING_CHARS } from '../../src/subagent/folder-budget.js';
import { parseAgentMarkdown } from '../../src/subagent/parse-agent-markdown.js';
import { TempDir } from './temp-agents.js';

let temp: TempDir;
afterEach(() => temp.remove());

const definition = (name: string, description: string, extra = ''): string => `---\nname: ${name}\ndescription: ${description}\n${extra}---\nYou are ${name}.\n`;

/** An engine's catalogue over a temporary workspace (and an empty home) holding `files`. */
async function workspaceAgents(files: Record<string, string>): Promise<AgentManager> {
  temp = await TempDir.create();
  await temp.write(Object.fromEntries(Object.entries(files).map(([name, text]) => [`ws/.rxharness/agents/${name}`, text])));
  return new AgentManager({ dirs: standardAgentDirs({ workspace: temp.join('ws'), home: temp.join('home') }) });
}

describe('a definition with a huge name or description', () => {
  it('is not loaded when its description is too long; the diagnostic names the file and does not quote it back', async () => {
    const agents = await workspaceAgents({ 'big.md': definition('big', 'Use me. '.repeat(30_000)), 'ok.md': definition('ok', 'Fine.') });
    expect(agents.get('big')).toBeUndefined();
    expect(agents.get('ok')?.description).toBe('Fine.');
    const [diagnostic] = agents.diagnostics().filter((d) => d.file.endsWith('big.md'));
    expect(diagnostic!.reason).toBe(
      `"description" is longer than ${MAX_AGENT_DESCRIPTION_CHARS} characters (it is sent with every request of the main agent): ` +
        'say in a few sentences when to use the agent, and move the rest into the body',
    );
    expect(taskToolDescription(agents.list()).length).toBeLessThan(2_000);
  });

  it('is not loaded when its name is too long, even a name of allowed letters', async () => {
    const agents = await workspaceAgents({ 'long.md': definition('a'.repeat(100_000), 'Long name.') });
    expect(agents.list().map((a) => a.source)).not.toContain('workspace');
    const reasons = agents.diagnostics().map((d) => d.reason);
    expect(reasons).toContain(`"name" is longer than ${MAX_AGENT_NAME_CHARS} characters: give the agent a shorter name`);
  });

  it('keeps a description of exactly the limit and a name of exactly the limit', () => {
    const text = definition('n'.repeat(MAX_AGENT_NAME_CHARS), 'd'.repeat(MAX_AGENT_DESCRIPTION_CHARS));
    expect(parseAgentMarkdown(text, { source: 'user' }).description).toHaveLength(MAX_AGENT_DESCRIPTION_CHARS);
  });
});

describe('many definitions of one folder', () => {
  it(`bring at most ${MAX_LISTING_CHARS} characters of names and descriptions; the rest are left out with a diagnostic`, async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`a${String(i).padStart(2, '0')}.md`] = definition(`a${String(i).padStart(2, '0')}`, 'x'.repeat(4_000));
    const agents = await workspaceAgents(files);
    const planted = agents.list().filter((a) => a.source === 'workspace');
    // 4,003 characters each: eight fit, the ninth would pass the limit.
    expect(planted.map((a) => a.name)).toEqual(['a00', 'a01', 'a02', 'a03', 'a04', 'a05', 'a06', 'a07']);
    expect(taskToolDescription(agents.list()).length).toBeLessThan(MAX_LISTING_CHARS + 4_000);
    const leftOut = agents.diagnostics().filter((d) => d.reason.startsWith('is left out'));
    expect(leftOut).toHaveLength(32);
    expect(leftOut[0]).toEqual({
      file: temp.join('ws/.rxharness/agents/a08.md'),
      reason:
        `is left out: the agents listed before it from ${temp.join('ws/.rxharness/agents')} already bring 32024 characters of names and descriptions, ` +
        `sent with every request of the main agent (at most ${MAX_LISTING_CHARS} per folder). ` +
        'Shorten their descriptions, set "hidden: true" on agents that need not be listed, or move some to another folder',
    });
  });

  it("bound only the workspace's folder: your home folder's agents all load, however long their descriptions", async () => {
    temp = await TempDir.create();
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`home/.rxharness/agents/a${String(i).padStart(2, '0')}.md`] = definition(`a${String(i).padStart(2, '0')}`, 'x'.repeat(4_000), `${'#'.repeat(99)}\n`.repeat(200));
    await temp.write(files);
    const agents = new AgentManager({ dirs: standardAgentDirs({ workspace: temp.join('ws'), home: temp.join('home') }) });
    expect(agents.list().filter((a) => a.source === 'user')).toHaveLength(40);
    expect(agents.diagnostics()).toEqual([]);
  });

  it('counts only the agents that are listed: hidden, disabled and primary ones cost nothing', async () => {
    const files: Record<string, string> = {};
    const kinds = ['hidden: true\n', 'enabled: false\n', 'mode: primary\n'];
    for (let i = 0; i < 30; i++) files[`h${String(i).padStart(2, '0')}.md`] = definition(`h${String(i).padStart(2, '0')}`, 'x'.repeat(4_000), kinds[i % 3]);
    files['z.md'] = definition('z', 'The last one.');
    const agents = await workspaceAgents(files);
    expect(agents.get('z')?.description).toBe('The last one.');
    expect(agents.enabled().filter((a) => a.hidden && a.source === 'workspace')).toHaveLength(10);
    expect(agents.diagnostics().filter((d) => d.reason.startsWith('is left out'))).toEqual([]);
  });
});

describe('the front matters of one folder', () => {
  // Comment lines: YAML that loads fast, so the test waits on nothing heavy.
  const padded = (name: string, chars: number): string => definition(name, `Agent ${name}.`, `${'#'.repeat(99)}\n`.repeat(Math.ceil(chars / 100)));

  it(`bring at most ${MAX_FOLDER_YAML_CHARS} characters to the YAML loader; a file past that is not read, a smaller later one still is`, async () => {
    const agents = await workspaceAgents({ 'a.md': padded('a', 200_000), 'b.md': padded('b', 200_000), 'c.md': padded('c', 200_000), 'd.md': definition('d', 'Small.') });
    expect(agents.list().filter((a) => a.source === 'workspace').map((a) => a.name)).toEqual(['a', 'b', 'd']);
    const [diagnostic] = agents.diagnostics();
    expect(diagnostic!.file).toBe(temp.join('ws/.rxharness/agents/c.md'));
    expect(diagnostic!.reason).toMatch(
      new RegExp(`^is not read: its front matter \\(\\d+ characters\\) and those read before it from .*agents pass the ${MAX_FOLDER_YAML_CHARS} characters`),
    );
    expect(diagnostic!.reason).toContain('the system prompt belongs in the body');
  });

  it('counts the YAML between the fences only (a BOM, CRLF lines, a long body cost nothing)', () => {
    expect(frontMatterChars('\uFEFF---\r\nname: a\r\n---\r\n' + 'body\n'.repeat(1000))).toBe('\nname: a\r'.length);
    expect(frontMatterChars('---\n---\nbody')).toBe(0);
    expect(frontMatterChars('---\nname: a\n---x\n--- \t\nbody')).toBe('\nname: a\n---x'.length);
    expect(frontMatterChars('---\nname: a\n')).toBe(0);
    expect(frontMatterChars('no fence\n---\n')).toBe(0);
  });

  it('refuses a front matter of thousands of plain keys, saying so (not only aliases make too many values)', () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `k${i}: 1`).join('\n');
    expect(() => parseAgentMarkdown(`---\nname: a\ndescription: d\n${keys}\n---\nBody.`, { source: 'workspace' })).toThrow(
      /expands to more than 10000 values \(too many keys or list items, or YAML aliases/,
    );
  });
});
