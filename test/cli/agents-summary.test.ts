import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// `rxharness agents` (in process): the exit code says whether every definition file was
// loaded, and the summary counts files, each listed with all its diagnostics.

const sandbox = sandboxPerTest();

const definition = (name: string, extra = ''): string => `---\nname: ${name}\ndescription: The ${name}.\n${extra}---\nYou work.\n`;

async function agents(...args: string[]): Promise<{ code: number; out: string }> {
  const io = sandbox.io();
  const code = await main(['agents', ...args], io);
  return { code, out: io.stdoutText() };
}

describe('rxharness agents: exit code and summary', () => {
  it('exits 0 when every file loaded, warnings or not, and counts one file with two warnings as one', async () => {
    const typo = await sandbox.workspace.file('.rxharness/agents/typo.md', definition('typo', 'maxStep: 3\nhiden: true\n'));
    const { code, out } = await agents();
    expect(code).toBe(0);
    expect(out).toMatch(/^typo +\[workspace\]/m);
    expect(out).toContain(`\n1 definition file loaded with warnings:\n  ${typo}: unknown key "maxStep"`);
    expect(out).toContain(`  ${typo}: unknown key "hiden"`);
    expect(out).not.toContain('not loaded:');
  });

  it('exits 1 when a file was not loaded, and says which files were and were not', async () => {
    const broken = await sandbox.workspace.file('.rxharness/agents/broken.md', '---\nname: broken\n---\nNo description.\n');
    const twin = await sandbox.workspace.file('.rxharness/agents/z/twin.md', definition('reviewer'));
    await sandbox.workspace.file('.rxharness/agents/reviewer.md', definition('reviewer'));
    const typo = await sandbox.workspace.file('.rxharness/agents/typo.md', definition('typo', 'tools: [read, grpe]\nhiden: true\n'));
    const { code, out } = await agents();
    expect(code).toBe(1);
    const notLoaded = out.slice(out.indexOf('definition files not loaded:'));
    expect(out).toContain('\n2 definition files not loaded:\n');
    expect(notLoaded).toContain(`  ${broken}: front matter has no "description"`);
    expect(notLoaded).toContain(`  ${twin}: agent "reviewer" is already defined by`);
    expect(out).toContain(`\n1 definition file loaded with warnings:\n  ${typo}: `);
    expect(out.split('\n').filter((line) => line.startsWith(`  ${typo}: `))).toHaveLength(2);
  });

  it('--json says the same: the files not loaded, and exit 1', async () => {
    const broken = await sandbox.workspace.file('.rxharness/agents/broken.md', 'no front matter at all\n');
    const io = sandbox.io();
    expect(await main(['agents', '--json'], io)).toBe(1);
    const doc = JSON.parse(io.stdoutText()) as { notLoaded: string[]; diagnostics: { file: string }[] };
    expect(doc.notLoaded).toEqual([broken]);
    expect(doc.diagnostics.map((d) => d.file)).toEqual([broken]);
  });

  it('a disabled definition (enabled: false) was loaded: its warning does not fail the command', async () => {
    const off = await sandbox.workspace.file('.rxharness/agents/off.md', definition('off', 'enabled: false\ntools: [read, grpe]\n'));
    const { code, out } = await agents();
    expect(out).toContain(`\n1 definition file loaded with warnings:\n  ${off}: unknown tool "grpe"`);
    expect(code).toBe(0);
  });

  it('a file ignored for a built-in\'s name was not loaded', async () => {
    const explore = await sandbox.workspace.file('.rxharness/agents/explore.md', definition('explore'));
    const { code, out } = await agents();
    expect(code).toBe(1);
    expect(out).toContain(`\n1 definition file not loaded:\n  ${explore}: agent "explore" is a built-in agent; this file is ignored`);
  });
});
