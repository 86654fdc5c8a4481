import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// `rxharness agents` (in process) shows what is wrong with a definition's skills.

const sandbox = sandboxPerTest();

describe('rxharness agents and skills', () => {
  it('lists an unknown skill and a malformed SKILL.md as diagnostics of the definition naming them', async () => {
    const file = await sandbox.workspace.file('.rxharness/agents/writer.md', '---\nname: writer\ndescription: Writes.\nskills: [missing, broken, tone]\n---\nYou write.\n');
    await sandbox.workspace.file('.rxharness/skills/broken/SKILL.md', '---\nname: broken\n---\nNo description.\n');
    await mkdir(join(sandbox.home, '.rxharness', 'skills', 'tone'), { recursive: true });
    await writeFile(join(sandbox.home, '.rxharness', 'skills', 'tone', 'SKILL.md'), '---\nname: tone\ndescription: Our tone.\n---\nBe plain.\n');
    const io = sandbox.io();
    expect(await main(['agents'], io)).toBe(0);
    const out = io.stdoutText();
    expect(out).toContain(`  ${file}: unknown skill "missing": no `);
    expect(out).toMatch(new RegExp(`  ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: skill "broken" is not loaded: .*needs a "description"`));
    // The home skill loads: nothing is said about it.
    expect(out).not.toContain('"tone"');
  });
});
