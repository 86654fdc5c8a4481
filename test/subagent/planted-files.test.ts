import { execFile, execFileSync } from 'node:child_process';
import { symlink, truncate } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverAgents } from '../../src/subagent/index.js';
import { MAX_DEFINITION_BYTES } from '../../src/subagent/discover-agents.js';
import type { AgentDiagnostic } from '../../src/subagent/agent-diagnostic.js';
import { agentFile, TempDir } from './temp-agents.js';

// What a cloned repository can plant under .rxharness/ costs the reader little and never blocks it.

const run = promisify(execFile);
const script = fileURLToPath(new URL('./planted-files-script.ts', import.meta.url));

let temp: TempDir;
beforeEach(async () => { temp = await TempDir.create(); });
afterEach(async () => { await temp.remove(); });

describe('files planted in the workspace', () => {
  it('refuses a definition file over MAX_DEFINITION_BYTES without reading it (a sparse file of gigabytes is free to plant)', async () => {
    await temp.write({ 'a/huge.md': agentFile('huge'), 'a/ok.md': agentFile('ok') });
    await truncate(temp.join('a', 'huge.md'), MAX_DEFINITION_BYTES + 1);
    const { definitions, diagnostics } = await discoverAgents([{ path: temp.join('a'), source: 'workspace' }]);
    expect(definitions.map((d) => d.name)).toEqual(['ok']);
    expect(diagnostics).toEqual([
      { file: temp.join('a', 'huge.md'), reason: `is ${MAX_DEFINITION_BYTES + 1} bytes, more than the ${MAX_DEFINITION_BYTES} a definition file may have; shorten it` },
    ]);
  });

  it('reads a folder once however many links lead to it: n links to itself cost n, not n² folders and files', async () => {
    await temp.write({ 'a/top.md': agentFile('top') });
    const links = 40;
    for (let i = 0; i < links; i++) await symlink(temp.join('a'), temp.join('a', `l${String(i).padStart(2, '0')}`));
    const { definitions, diagnostics } = await discoverAgents([{ path: temp.join('a'), source: 'workspace' }]);
    expect(definitions.map((d) => d.name)).toEqual(['top']);
    expect(diagnostics).toHaveLength(links);
    expect(diagnostics[0]).toEqual({ file: temp.join('a', 'l00'), reason: `leads to a folder already read (${temp.join('a')}); it is not read again` });
  });

  it('refuses a SKILL.md that is a named pipe instead of blocking the process on it', async () => {
    const workspace = temp.join('ws');
    await temp.write({ 'ws/.rxharness/agents/writer.md': agentFile('writer', 'skills: [tone]\n'), 'home/.keep': '' });
    await temp.write({ 'ws/.rxharness/skills/tone/.keep': '' });
    execFileSync('mkfifo', [temp.join('ws', '.rxharness', 'skills', 'tone', 'SKILL.md')]);
    // In a process of its own, so that a blocked open fails the test at the timeout rather than hanging it.
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script, workspace, temp.join('home')], { timeout: 20_000 });
    const diagnostics = JSON.parse(stdout) as AgentDiagnostic[];
    expect(diagnostics).toEqual([
      {
        file: temp.join('ws', '.rxharness', 'agents', 'writer.md'),
        reason: `skill "tone" is not loaded: ${temp.join('ws', '.rxharness', 'skills', 'tone', 'SKILL.md')}: is not a regular file`,
      },
    ]);
  }, 30_000);
});
