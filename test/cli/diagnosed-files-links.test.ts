/**
 * `rxharness agents` reads a diagnosed definition file again to learn whether it holds a
 * disabled agent. A file of the workspace's agents folder that is a symbolic link out of the
 * workspace is not opened then, as discovery does not open it: a file swapped for such a link
 * after discovery could otherwise have the command read a file of yours (a named pipe there
 * is not even listed by discovery, so it never reaches this read).
 */
import { mkdir, realpath, rename, symlink } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diagnosedFiles } from '../../src/cli/diagnosed-files.js';
import { main } from '../../src/cli/main.js';
import { AgentManager, standardAgentDirs } from '../../src/subagent/index.js';
import { agentFile, TempDir } from '../subagent/temp-agents.js';
import { sandboxPerTest } from './sandbox-per-test.js';

let temp: TempDir;
let root: string;
beforeEach(async () => {
  temp = await TempDir.create();
  root = await realpath(temp.path);
});
afterEach(async () => { await temp.remove(); });

const at = (...parts: string[]) => [root, ...parts].join('/');
// Disabled (so only a read of its name says the manager holds it), with an unknown tool (so it is diagnosed).
const DISABLED = agentFile('quiet', 'enabled: false\ntools: [read, nosuchtool]\n');

/** `diagnosedFiles` for this test's files (the built-ins name tools this manager does not know). */
function ours(agents: AgentManager): { notLoaded: string[]; withWarnings: string[] } {
  const { notLoaded, withWarnings } = diagnosedFiles(agents, agents.diagnostics(), at('ws'));
  const mine = (file: string) => file.startsWith(`${root}/`);
  return { notLoaded: notLoaded.filter(mine), withWarnings: withWarnings.filter(mine) };
}

function manager(): AgentManager {
  const agents = new AgentManager({ dirs: standardAgentDirs({ workspace: at('ws'), home: at('home') }), knownTools: ['read'] });
  agents.diagnostics(); // discovery, done now: what follows happens after it
  return agents;
}

describe('diagnosedFiles and links', () => {
  it('a disabled definition read through a link inside the workspace counts as loaded', async () => {
    await temp.write({ 'ws/docs/quiet.md': DISABLED, 'ws/.rxharness/agents/.keep': '' });
    await symlink(at('ws', 'docs', 'quiet.md'), at('ws', '.rxharness', 'agents', 'quiet.md'));
    const agents = manager();
    expect(ours(agents)).toEqual({ notLoaded: [], withWarnings: [at('ws', '.rxharness', 'agents', 'quiet.md')] });
  });

  it('a file swapped for a link out of the workspace after discovery is not read through it', async () => {
    const file = at('ws', '.rxharness', 'agents', 'quiet.md');
    await temp.write({ 'ws/.rxharness/agents/quiet.md': DISABLED });
    const agents = manager();
    // Followed, the link's target (the same definition, now outside) would say "loaded".
    await mkdir(at('outside'));
    await rename(file, at('outside', 'quiet.md'));
    await symlink(at('outside', 'quiet.md'), file);
    expect(ours(agents)).toEqual({ notLoaded: [file], withWarnings: [] });
  });

  it('a link in the home folder is followed, as discovery follows it there', async () => {
    await temp.write({ 'shared/quiet.md': DISABLED, 'home/.rxharness/agents/.keep': '', 'ws/.keep': '' });
    await symlink(at('shared', 'quiet.md'), at('home', '.rxharness', 'agents', 'quiet.md'));
    const agents = manager();
    expect(ours(agents)).toEqual({ notLoaded: [], withWarnings: [at('home', '.rxharness', 'agents', 'quiet.md')] });
  });
});

describe('rxharness agents and a link out of the workspace', () => {
  const sandbox = sandboxPerTest();

  it('lists it as not loaded (exit 1), saying where it leads', async () => {
    await temp.write({ 'outside/quiet.md': DISABLED });
    const link = await sandbox.workspace.file('.rxharness/agents/quiet.md', '');
    await rename(link, `${link}.gone`); // the name, made a link
    await symlink(at('outside', 'quiet.md'), link);
    const io = sandbox.io();
    expect(await main(['agents', '--json'], io)).toBe(1);
    const doc = JSON.parse(io.stdoutText()) as { notLoaded: string[]; diagnostics: { file: string; reason: string }[] };
    expect(doc.notLoaded).toEqual([link]);
    expect(doc.diagnostics.find((d) => d.file === link)?.reason).toContain(`is a symbolic link leading out of the workspace (to ${at('outside', 'quiet.md')})`);
  });
});
