import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// Discovery skips a missing folder silently (the standard ones often are); a folder the user
// named is meant to be there, so a misspelt one is bad usage, as `--mcp-config nope.json` is.
const sandbox = sandboxPerTest();

const at = (): string[] => ['--workspace', sandbox.workspace.dir, '--agent-dir', 'team-agnets'];

describe('--agent-dir naming no folder', () => {
  it.each([
    ['agents', () => ['agents', ...at()]],
    ['run', () => ['run', '--demo', ...at(), 'hi']],
  ])('%s exits 2 saying there is no such folder, and where it looked; nothing runs', async (_command, argv) => {
    const io = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '0' });
    const code = await main(argv(), io);
    expect(code).toBe(2);
    expect(io.stderrText()).toBe(`rxharness: --agent-dir team-agnets: no such folder (${join(sandbox.workspace.dir, 'team-agnets')}; a relative folder is read from the workspace)\n`);
    expect(io.stdoutText()).toBe('');
  });

  it('a file is not a folder; an existing folder loads its definitions', async () => {
    writeFileSync(join(sandbox.workspace.dir, 'notes.md'), 'x');
    const bad = sandbox.io();
    expect(await main(['agents', '--workspace', sandbox.workspace.dir, '--agent-dir', 'notes.md'], bad)).toBe(2);
    expect(bad.stderrText()).toMatch(/^rxharness: --agent-dir notes\.md: not a folder \(/);
    mkdirSync(join(sandbox.workspace.dir, 'team'));
    writeFileSync(join(sandbox.workspace.dir, 'team', 'helper.md'), '---\nname: helper\ndescription: Helps.\n---\nYou help.\n');
    const good = sandbox.io();
    expect(await main(['agents', '--workspace', sandbox.workspace.dir, '--agent-dir', 'team'], good)).toBe(0);
    expect(good.stdoutText()).toMatch(/^helper +\[dir\] +Helps\.$/m);
  });
});
