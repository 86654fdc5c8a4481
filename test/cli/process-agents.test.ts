import { beforeEach, describe, expect, it } from 'vitest';
import { sandboxPerTest } from './sandbox-per-test.js';
import { runCli, type CliResult } from './spawn-cli.js';

const sandbox = sandboxPerTest();
let broken: string;
beforeEach(async () => {
  await sandbox.workspace.file(
    '.rxharness/agents/reviewer.md',
    '---\nname: reviewer\ndescription: Reviews a diff for bugs.\ntools: [read, grep]\n---\nYou review diffs.\n',
  );
  broken = await sandbox.workspace.file('.rxharness/agents/broken.md', '---\nname: broken\n---\nNo description here.\n');
});

function agents(args: string[] = []): Promise<CliResult> {
  return runCli(['agents', ...args], { home: sandbox.home, cwd: sandbox.workspace.dir });
}

interface AgentsJson {
  agents: Array<{ name: string; description: string; source: string; file?: string; tools: string[] }>;
  diagnostics: Array<{ file: string; reason: string }>;
}

describe('rxharness agents', () => {
  it('lists the built-ins and the workspace definition with their source, then the invalid file and why, and exits 1 (a file was not loaded)', async () => {
    const result = await agents();
    expect(result).toMatchObject({ code: 1, stderr: '' });
    expect(result.stdout).toMatch(/^explore +\[builtin\] +Fast read-only search/m);
    expect(result.stdout).toMatch(/^reviewer +\[workspace\] +Reviews a diff for bugs\.$/m);
    expect(result.stdout).not.toMatch(/^broken /m);
    expect(result.stdout).toContain(`\n1 definition file not loaded:\n  ${broken}: front matter has no "description"\n`);
  });

  it('--json prints one document with the agents and the diagnostics', async () => {
    const result = await agents(['--json']);
    expect(result.code).toBe(1);
    const doc = JSON.parse(result.stdout) as AgentsJson;
    expect(doc.agents.map((a) => a.name)).toEqual(['bash', 'explore', 'general', 'plan', 'reviewer']);
    expect(doc.agents.find((a) => a.name === 'reviewer')).toEqual({
      name: 'reviewer',
      description: 'Reviews a diff for bugs.',
      source: 'workspace',
      file: `${sandbox.workspace.dir}/.rxharness/agents/reviewer.md`,
      tools: ['read', 'grep'],
    });
    // A built-in with no tool list gets every tool the main agent has, minus delegation (depth 1).
    expect(doc.agents.find((a) => a.name === 'general')!.tools).toEqual(['read', 'write', 'edit', 'list', 'glob', 'grep', 'bash', 'todo']);
    expect(doc.diagnostics).toEqual([{ file: broken, reason: 'front matter has no "description"' }]);
  });

  it('--workspace reads another folder’s definitions', async () => {
    const result = await runCli(['agents', '--json', '--workspace', sandbox.workspace.dir], { home: sandbox.home, cwd: sandbox.home });
    expect((JSON.parse(result.stdout) as AgentsJson).agents.map((a) => a.name)).toContain('reviewer');
    const elsewhere = await runCli(['agents', '--json'], { home: sandbox.home, cwd: sandbox.home });
    expect((JSON.parse(elsewhere.stdout) as AgentsJson).agents.map((a) => a.name)).not.toContain('reviewer');
  });

  it('reports what the engine reports: an unknown tool name in a definition, and --agent-dir folders', async () => {
    await sandbox.workspace.file('.rxharness/agents/typo.md', '---\nname: typo\ndescription: Has a typo.\ntools: [read, grpe]\n---\nYou read.\n');
    const extra = await sandbox.workspace.file('more/agents/extra.md', '---\nname: extra\ndescription: From an extra folder.\n---\nYou help.\n');
    const result = await agents(['--json', '--agent-dir', 'more/agents']);
    const doc = JSON.parse(result.stdout) as AgentsJson;
    expect(doc.agents.find((a) => a.name === 'extra')).toMatchObject({ source: 'dir', file: extra });
    expect(doc.agents.find((a) => a.name === 'typo')!.tools).toEqual(['read']);
    expect(doc.diagnostics.map((d) => d.reason).join('\n')).toMatch(/unknown tool "grpe"/);
  });
});
