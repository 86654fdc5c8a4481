import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// `rxharness agents` (in process) shows the settings of a workspace definition that its runs
// ignore (the `definition-setting-ignored` warning each run starts with), as it shows the
// definitions' other diagnostics: it was said only once a run of the agent had started.

const sandbox = sandboxPerTest();

/** A definition of `name` whose front matter sets `context_window` (and `more`). */
const wideDefinition = (name: string, window: number, more = ''): string =>
  `---\nname: ${name}\ndescription: Reads wide.\ncontext_window: ${window}\n${more}---\nYou read.\n`;

/** The reason `agents` gives for a `context_window` of `n` on the model it reads with (no window set), advice included. */
const ignoredWindow = (n: number): string =>
  `context_window ${n} is ignored: the model's window is not set (--context-window, or the model's contextWindow setting), so it may not be larger. ` +
  'A definition in the workspace may only narrow its agent. Set the engine option trustWorkspaceAgents to trust workspace definitions, ' +
  'or move the file to ~/.rxharness/agents/ or a folder in agentDirs.';

/** `rxharness agents` with `args`: its exit code and what it printed. */
const listing = async (args: readonly string[] = []): Promise<{ code: number; out: string }> => {
  const io = sandbox.io();
  return { code: await main(['agents', ...args], io), out: io.stdoutText() };
};

describe('rxharness agents: a workspace definition\'s settings its runs ignore', () => {
  it('are listed among the files loaded with warnings, with the advice, and exit 0', async () => {
    const wide = await sandbox.workspace.file('.rxharness/agents/wide.md', wideDefinition('wide', 100000));
    const { code, out } = await listing();
    expect(code).toBe(0);
    expect(out).toMatch(/^wide +\[workspace\]/m);
    expect(out).toContain(`\n1 definition file loaded with warnings:\n  ${wide}: ${ignoredWindow(100000)}\n`);
  });

  it('--json says the same, for a subagent and for the main agent\'s definition', async () => {
    const wide = await sandbox.workspace.file('.rxharness/agents/wide.md', wideDefinition('wide', 100000));
    const lead = await sandbox.workspace.file('.rxharness/agents/lead.md', wideDefinition('lead', 200000, 'mode: primary\n'));
    const { code, out } = await listing(['--json']);
    expect(code).toBe(0);
    const doc = JSON.parse(out) as { diagnostics: { file: string; reason: string }[]; notLoaded: string[] };
    expect(doc.diagnostics).toEqual(expect.arrayContaining([{ file: wide, reason: ignoredWindow(100000) }, { file: lead, reason: ignoredWindow(200000) }]));
    expect(doc.diagnostics).toHaveLength(2);
    expect(doc.notLoaded).toEqual([]);
  });

  it('a definition that may loosen its agent (the home folder\'s) keeps its settings: nothing to say', async () => {
    await mkdir(join(sandbox.home, '.rxharness', 'agents'), { recursive: true });
    await writeFile(join(sandbox.home, '.rxharness', 'agents', 'wide.md'), wideDefinition('wide', 100000));
    const { code, out } = await listing();
    expect(code).toBe(0);
    expect(out).toMatch(/^wide +\[user\]/m);
    expect(out).not.toContain('loaded with warnings');
  });
});
